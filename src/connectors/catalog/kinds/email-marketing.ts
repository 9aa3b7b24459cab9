import { byName, defineConnector } from '../define.js';
import { byType, f, searchOf } from '../field.js';
import type { EntityDef, FieldSpec, ParamSpec, ReadSpec } from '../types.js';

const iso = f.fmt('iso_datetime');
const SIZE_RULE = 'Email marketing `list` actions: `page[size]` at most 100 (overview §8)';

const listParams: Record<string, ParamSpec> = {
  'page[size]': { type: 'int', min: 1, max: 100 },
  'page[cursor]': { type: 'string' },
};
/**
 * The reference names the request param (`page[cursor]`) but not the meta value that feeds it.
 * We name it `next_cursor`: the cursor alone, as the CRM and usage-billing kinds return it, not the
 * platform's `links.next` URL (a runtime extracts `page[cursor]` from that URL).
 */
const read: ReadSpec = {
  action: 'list',
  pageSize: { param: 'page[size]', max: 100 },
  paging: { style: 'token', param: 'page[cursor]', from: 'next_cursor' },
};

/** JSON:API envelope shared by every record of this kind. */
const resource = (type: string, attributes: Record<string, FieldSpec>): Record<string, FieldSpec> => ({
  id: f.str({ format: 'id' }),
  type: f.konst(type),
  attributes: f.obj(attributes),
  links: f.obj({ self: f.fmt('url') }),
});
const stamps = { created: iso, updated: iso };

/**
 * Searchable names the JSON:API envelope keeps inside `attributes` (`updated`, `datetime`, ...):
 * copied up when stored, so they are searchable under the name the reference gives them.
 */
function fromAttributes(searchable: Readonly<Record<string, unknown>>, fields: Readonly<Record<string, FieldSpec>>, attributes: Readonly<Record<string, FieldSpec>>): Record<string, string> {
  return Object.fromEntries(Object.keys(searchable).filter((n) => !(n in fields) && n in attributes).map((n) => [n, `attributes.${n}`]));
}

/** Reference entity: record envelope as shown; searchable as shown (some names live in `attributes`). */
function shown(name: string, type: string, attributes: Record<string, FieldSpec>, searchable: Parameters<typeof byType>[0], extra: Partial<EntityDef> = {}): EntityDef {
  const fields = resource(type, attributes);
  const search = byType(searchable);
  return {
    name,
    actions: ['list', 'get', 'search'],
    idField: 'id',
    source: 'reference',
    fields,
    searchable: search,
    derived: fromAttributes(search, fields, attributes),
    params: listParams,
    read,
    rules: [SIZE_RULE],
    ...extra,
  };
}

const profiles = shown(
  'profiles',
  'profile',
  {
    email: f.fmt('email', true),
    phone_number: f.fmt('phone', true),
    first_name: f.fmt('first_name', true),
    last_name: f.fmt('last_name', true),
    organization: f.fmt('company', true),
    title: f.fmt('title', true),
    location: f.objN({ city: f.strN(), country: f.fmt('country', true) }),
    ...stamps,
  },
  { object: 'attributes links relationships segments', string: 'id type updated' },
);

const lists = shown(
  'lists',
  'list',
  { name: f.fmt('title'), opt_in_process: f.oneOf(['single_opt_in', 'double_opt_in']), ...stamps },
  { object: 'attributes links relationships', string: 'id type updated' },
);

const metrics = shown(
  'metrics',
  'metric',
  { name: f.oneOf(['Placed Order', 'Opened Email', 'Clicked Email', 'Viewed Product', 'Active on Site']), integration: f.obj(), ...stamps },
  { object: 'attributes links relationships', string: 'id type updated' },
);

const campaigns = shown(
  'campaigns',
  'campaign',
  {
    name: f.fmt('title'),
    status: f.oneOf(['Draft', 'Scheduled', 'Sending', 'Sent', 'Cancelled']),
    archived: f.bool(),
    send_time: f.fmt('iso_datetime', true),
    created_at: iso,
    updated_at: iso,
  },
  { object: 'attributes links relationships', string: 'id type updated_at' },
  {
    params: { ...listParams, filter: { type: 'string', required: true, enum: ['email', 'sms'] } },
    // Rule 3 makes the channel mandatory, so the read is one partition per channel.
    read: { ...read, partitions: [{ kind: 'values', param: 'filter', values: ['email', 'sms'] }] },
    rules: [SIZE_RULE, '`list`: the `filter` parameter (channel `email` or `sms`) is required (overview §7 rule 3)'],
  },
);

const events: EntityDef = {
  name: 'events',
  actions: ['list', 'search'],
  idField: 'id',
  source: 'reference',
  fields: {
    ...resource('event', { timestamp: f.int({ format: 'unix' }), datetime: iso, uuid: f.str(), event_properties: f.obj() }),
    relationships: f.objN({ profile: f.obj(), metric: f.obj() }),
  },
  searchable: byType({ object: 'attributes links relationships', string: 'datetime id type' }),
  derived: { datetime: 'attributes.datetime' },
  params: { ...listParams, sort: { type: 'string', enum: ['datetime', '-datetime', 'timestamp', '-timestamp'] } },
  // Oldest first, so events appended while reading land on later pages instead of shifting earlier ones.
  read: { ...read, fixedParams: { sort: 'datetime' } },
  rules: [SIZE_RULE],
};

/** Flows and templates: "not shown"; same envelope, plus the top-level `updated` the shown entities search by. */
function inferred(name: string, type: string, attributes: Record<string, FieldSpec>): EntityDef {
  const fields = { ...resource(type, attributes), relationships: f.objN(), updated: iso };
  return {
    name,
    actions: ['list', 'get', 'search'],
    idField: 'id',
    source: 'inferred',
    fields,
    searchable: searchOf(fields, 'id type attributes links relationships updated'),
    params: listParams,
    read,
    rules: [SIZE_RULE],
  };
}

const flows = inferred('flows', 'flow', {
  name: f.fmt('title'),
  status: f.oneOf(['draft', 'manual', 'live']),
  archived: f.bool(),
  trigger_type: f.oneOf(['Added to List', 'Metric', 'Date Based', 'Price Drop']),
  ...stamps,
});

const email_templates = inferred('email_templates', 'template', {
  name: f.fmt('title'),
  editor_type: f.oneOf(['CODE', 'SYSTEM_DRAGGABLE', 'USER_DRAGGABLE']),
  html: f.fmt('text'),
  text: f.fmt('text', true),
  ...stamps,
});

/** Email marketing. Credentials "not shown": private API key, or OAuth (short-lived tokens: refresh required). */
export const emailMarketing = defineConnector({
  key: 'email_marketing',
  title: 'Email marketing',
  credentialMethods: [
    { name: 'token', fields: { api_key: { required: true } } },
    {
      name: 'oauth',
      fields: { refresh_token: { required: true }, access_token: { required: false }, client_id: { required: false }, client_secret: { required: false } },
    },
  ],
  replicationConfig: {},
  entities: byName(profiles, lists, campaigns, events, metrics, flows, email_templates),
});
