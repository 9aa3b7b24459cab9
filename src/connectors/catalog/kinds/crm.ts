import { byName, defineConnector } from '../define.js';
import { byType, each, f, searchOf } from '../field.js';
import type { EntityDef, FieldSpec, ParamSpec, ReadSpec } from '../types.js';

const iso = f.fmt('iso_datetime');
const SEARCH_RULE = '`api_search`: at most 6 filter groups; `query` up to 3000 characters (overview §8)';
const LIST_RULE = '`list`: using `propertiesWithHistory` lowers the maximum results per request (overview §8)';

/**
 * Reference 4.11 `list` params (contacts, companies), assumed for the other object lists. `limit`
 * has no maximum shown; 100 is the platform's documented cap. `propertiesWithHistory` is never sent
 * by the read, so the full page size holds.
 */
const listParams: Record<string, ParamSpec> = {
  limit: { type: 'int', min: 1, max: 100 },
  after: { type: 'string' },
  associations: { type: 'string' },
  properties: { type: 'string' },
  propertiesWithHistory: { type: 'string' },
  archived: { type: 'boolean' },
};
const read: ReadSpec = {
  action: 'list',
  pageSize: { param: 'limit', max: 100 },
  paging: { style: 'token', param: 'after', from: 'next_cursor' },
};

/** The object-record envelope shared by contacts, companies, deals, tickets and custom objects. */
const record = (properties: Record<string, FieldSpec>): Record<string, FieldSpec> => ({
  id: f.str({ format: 'id' }),
  properties: f.obj(properties),
  createdAt: iso,
  updatedAt: iso,
  archived: f.bool(),
  archivedAt: f.fmt('iso_datetime', true),
  propertiesWithHistory: f.objN(),
  associations: f.objN(),
  objectWriteTraceId: f.strN(),
  url: f.fmt('url', true),
});

const crmEntity = (name: string, fields: Record<string, FieldSpec>, rest: Partial<EntityDef>): EntityDef => ({
  name,
  actions: ['list', 'get', 'api_search', 'search'],
  idField: 'id',
  source: 'reference',
  fields,
  params: listParams,
  read,
  rules: [LIST_RULE, SEARCH_RULE],
  ...rest,
});

const contacts = crmEntity(
  'contacts',
  record({
    email: f.fmt('email', true),
    firstname: f.fmt('first_name', true),
    lastname: f.fmt('last_name', true),
    company: f.fmt('company', true),
    phone: f.fmt('phone', true),
    lifecyclestage: f.oneOf(['subscriber', 'lead', 'marketingqualifiedlead', 'salesqualifiedlead', 'opportunity', 'customer'], true),
  }),
  { searchable: byType({ boolean: 'archived', array: 'companies', string: 'createdAt id updatedAt', object: 'properties' }) },
);

const companies = crmEntity(
  'companies',
  record({
    name: f.fmt('company', true),
    domain: f.strN(),
    industry: f.oneOf(['SOFTWARE', 'RETAIL', 'FINANCIAL_SERVICES', 'HEALTHCARE', 'EDUCATION'], true),
    city: f.strN(),
    country: f.fmt('country', true),
    numberofemployees: f.strN(),
  }),
  { searchable: byType({ boolean: 'archived', array: 'contacts', string: 'createdAt id updatedAt', object: 'properties' }) },
);

/** Deals: "not shown"; same envelope plus the association id lists the shown entities search by. */
const dealFields: Record<string, FieldSpec> = {
  ...record({
    dealname: f.fmt('title', true),
    amount: f.strN(),
    dealstage: f.oneOf(['appointmentscheduled', 'qualifiedtobuy', 'contractsent', 'closedwon', 'closedlost'], true),
    pipeline: f.strN(),
    closedate: f.fmt('iso_datetime', true),
  }),
  ...each(f.arr('string'), 'companies contacts'),
};
const deals = crmEntity('deals', dealFields, {
  source: 'inferred',
  searchable: searchOf(dealFields, 'archived companies contacts createdAt id updatedAt properties'),
});

const tickets = crmEntity(
  'tickets',
  record({
    subject: f.fmt('title', true),
    content: f.fmt('text', true),
    hs_pipeline_stage: f.strN(),
    hs_ticket_priority: f.oneOf(['LOW', 'MEDIUM', 'HIGH'], true),
  }),
  { actions: ['list', 'get', 'api_search'], source: 'inferred' },
);

/** Custom object schemas: a short list returned whole. */
const schemas: EntityDef = {
  name: 'schemas',
  actions: ['list', 'get'],
  idField: 'id',
  source: 'inferred',
  fields: {
    id: f.str({ format: 'id' }),
    name: f.str(),
    objectTypeId: f.str(),
    fullyQualifiedName: f.str(),
    labels: f.obj({ singular: f.str(), plural: f.str() }),
    primaryDisplayProperty: f.strN(),
    ...each(f.arr('object'), 'properties associations'),
    createdAt: iso,
    updatedAt: iso,
    archived: f.bool(),
  },
  params: { archived: { type: 'boolean' } },
  read: { action: 'list', paging: { style: 'none' } },
};

/** Records of custom objects, one partition per schema (`objectType` is its `objectTypeId`). */
const objects: EntityDef = {
  name: 'objects',
  actions: ['list', 'get'],
  idField: 'id',
  source: 'inferred',
  fields: record({ hs_object_id: f.strN() }),
  params: { objectType: { type: 'string', required: true }, ...listParams },
  read: { ...read, partitions: [{ kind: 'parent', entity: 'schemas', param: 'objectType', from: 'objectTypeId' }] },
  rules: [LIST_RULE],
};

/** CRM. Credentials "not shown": private-app token, or OAuth (short-lived tokens: refresh required). */
export const crm = defineConnector({
  key: 'crm',
  title: 'CRM',
  credentialMethods: [
    { name: 'token', fields: { private_app_token: { required: true } } },
    {
      name: 'oauth',
      fields: { refresh_token: { required: true }, access_token: { required: false }, client_id: { required: false }, client_secret: { required: false } },
    },
  ],
  replicationConfig: {},
  entities: byName(contacts, companies, deals, tickets, schemas, objects),
});
