import { byName, defineConnector } from '../define.js';
import { byType, f } from '../field.js';
import type { EntityDef } from '../types.js';

const strN = f.strN();
/** Paging everywhere it exists: meta `offset` fed back as `offset`; absent on the last page. */
const offsetPaging = { style: 'token', param: 'offset', from: 'offset' } as const;

const bases: EntityDef = {
  name: 'bases',
  actions: ['list', 'search'],
  idField: 'id',
  source: 'reference',
  fields: {
    id: f.str({ format: 'id' }),
    name: f.fmt('title', true),
    permissionLevel: f.oneOf(['none', 'read', 'comment', 'edit', 'create'], true),
  },
  searchable: byType({ string: 'id name permissionLevel' }),
  params: { offset: { type: 'string' } },
  read: { action: 'list', paging: offsetPaging },
};

const tables: EntityDef = {
  name: 'tables',
  actions: ['list', 'search'],
  idField: 'id',
  source: 'reference',
  fields: {
    id: f.str({ format: 'id' }),
    name: f.fmt('title', true),
    primaryFieldId: strN,
    fields: f.arrN({
      id: strN,
      name: strN,
      type: f.oneOf(['singleLineText', 'multilineText', 'number', 'checkbox', 'singleSelect', 'date', 'email'], true),
      options: f.objN(),
    }),
    views: f.arrN({ id: strN, name: strN, type: f.oneOf(['grid', 'form', 'calendar', 'gallery', 'kanban'], true) }),
  },
  searchable: byType({ string: 'id name primaryFieldId', array: 'fields views' }),
  params: { base_id: { type: 'string', required: true } },
  // A base's schema comes back whole.
  read: { action: 'list', paging: { style: 'none' }, partitions: [{ kind: 'parent', entity: 'bases', param: 'base_id' }] },
};

/** Records need their base and their table; a table belongs to one base, hence `within`. */
const records: EntityDef = {
  name: 'records',
  actions: ['list', 'get'],
  idField: 'id',
  source: 'reference',
  fields: {
    id: f.str({ format: 'id' }),
    createdTime: f.fmt('iso_datetime', true),
    fields: f.objN({ Name: f.fmt('title', true), Notes: f.fmt('text', true), Status: f.oneOf(['Todo', 'In progress', 'Done'], true) }),
  },
  params: {
    base_id: { type: 'string', required: true },
    table_id_or_name: { type: 'string', required: true },
    offset: { type: 'string' },
    pageSize: { type: 'int', min: 1, max: 100 },
    view: { type: 'string' },
    filterByFormula: { type: 'string' },
    sort: { type: 'string' },
  },
  read: {
    action: 'list',
    pageSize: { param: 'pageSize', max: 100 },
    paging: offsetPaging,
    partitions: [
      { kind: 'parent', entity: 'bases', param: 'base_id' },
      { kind: 'parent', entity: 'tables', param: 'table_id_or_name', within: 'base_id' },
    ],
  },
  rules: ['`list`: `pageSize` at most 100 (overview §8)'],
};

/** Table platform. Credentials "not shown": personal access token, or OAuth (hour-long tokens: refresh required). */
export const tablePlatform = defineConnector({
  key: 'table_platform',
  title: 'Table platform',
  credentialMethods: [
    { name: 'token', fields: { api_key: { required: true } } },
    {
      name: 'oauth',
      fields: { refresh_token: { required: true }, access_token: { required: false }, client_id: { required: false }, client_secret: { required: false } },
    },
  ],
  replicationConfig: {},
  entities: byName(bases, tables, records),
});
