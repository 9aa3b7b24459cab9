import { each, f } from '../../field.js';
import type { EntityDef, FieldSpec } from '../../types.js';
import { countParams, isoN, perList } from './shared.js';

// Audience sub-collections: fields and params "not shown"; inferred. All hang off one list.

const memberFields: Record<string, FieldSpec> = {
  id: f.str({ format: 'id' }),
  email_address: f.fmt('email'),
  unique_email_id: f.str(),
  full_name: f.fmt('name', true),
  status: f.oneOf(['subscribed', 'unsubscribed', 'cleaned', 'pending', 'transactional']),
  list_id: f.str({ format: 'id' }),
  ...each(isoN, 'timestamp_opt last_changed'),
  member_rating: f.int(),
  vip: f.bool(),
  merge_fields: f.obj({ FNAME: f.fmt('first_name', true), LNAME: f.fmt('last_name', true) }),
  tags: f.arr({ id: f.int(), name: f.str() }),
};

/** The member id is the hash of the email address: one person on two lists (or segments) shares it. */
const perListIdRule =
  'Not replicated: a member `id` (hash of the email address) repeats across lists and segments, so it cannot key one record';

export const list_members: EntityDef = {
  name: 'list_members',
  actions: ['list', 'get'],
  idField: 'id',
  source: 'inferred',
  fields: memberFields,
  params: { list_id: { type: 'string', required: true }, ...countParams, since_last_changed: { type: 'string' }, status: { type: 'string' } },
  rules: [perListIdRule],
};

export const segment_members: EntityDef = {
  name: 'segment_members',
  actions: ['list'],
  idField: 'id',
  source: 'inferred',
  fields: memberFields,
  params: { list_id: { type: 'string', required: true }, segment_id: { type: 'string', required: true }, ...countParams },
  rules: [perListIdRule],
};

/** Tag search returns a list's tags whole. */
export const tags: EntityDef = {
  name: 'tags',
  actions: ['list'],
  idField: 'id',
  source: 'inferred',
  fields: { id: f.int(), name: f.str() },
  params: { list_id: { type: 'string', required: true }, name: { type: 'string' } },
  read: { action: 'list', paging: { style: 'none' }, partitions: [{ kind: 'parent', entity: 'lists', param: 'list_id' }] },
};

export const interest_categories: EntityDef = {
  name: 'interest_categories',
  actions: ['list', 'get'],
  idField: 'id',
  source: 'inferred',
  fields: {
    id: f.str({ format: 'id' }),
    list_id: f.str({ format: 'id' }),
    title: f.fmt('title'),
    display_order: f.int(),
    type: f.oneOf(['checkboxes', 'dropdown', 'radio', 'hidden']),
  },
  params: { list_id: { type: 'string', required: true }, ...countParams, type: { type: 'string' } },
  read: perList,
};

/** Interests need both their list and their category; a category belongs to one list. */
export const interests: EntityDef = {
  name: 'interests',
  actions: ['list', 'get'],
  idField: 'id',
  source: 'inferred',
  fields: {
    id: f.str({ format: 'id' }),
    ...each(f.str({ format: 'id' }), 'category_id list_id'),
    name: f.str(),
    subscriber_count: f.str(),
    display_order: f.int(),
  },
  params: { list_id: { type: 'string', required: true }, interest_category_id: { type: 'string', required: true }, ...countParams },
  read: {
    ...perList,
    partitions: [
      { kind: 'parent', entity: 'lists', param: 'list_id' },
      { kind: 'parent', entity: 'interest_categories', param: 'interest_category_id', within: 'list_id' },
    ],
  },
};

export const segments: EntityDef = {
  name: 'segments',
  actions: ['list', 'get'],
  idField: 'id',
  source: 'inferred',
  fields: {
    id: f.int(),
    name: f.fmt('title'),
    member_count: f.int(),
    type: f.oneOf(['saved', 'static', 'fuzzy']),
    ...each(f.fmt('iso_datetime'), 'created_at updated_at'),
    options: f.objN(),
    list_id: f.str({ format: 'id' }),
  },
  params: { list_id: { type: 'string', required: true }, ...countParams, type: { type: 'string' } },
  read: perList,
};
