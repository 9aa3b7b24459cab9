import { byName, defineConnector } from '../define.js';
import { byType, each, f } from '../field.js';
import type { EntityDef, FieldSpec, ReadSpec } from '../types.js';

const iso = f.fmt('iso_datetime');

/** Page size is fixed by the platform (no size param shown); the cursor sits in meta `pagination`. */
const read: ReadSpec = { action: 'list', paging: { style: 'token', param: 'cursor', from: 'pagination.cursor' } };

const users: EntityDef = {
  name: 'users',
  actions: ['list', 'get', 'search'],
  idField: 'id',
  source: 'reference',
  fields: {
    id: f.str({ format: 'id' }),
    emailAddress: f.fmt('email'),
    created: iso,
    active: f.bool(),
    emailAliases: f.arr('string'),
    trustedEmailAddress: f.fmt('email', true),
    firstName: f.fmt('first_name'),
    lastName: f.fmt('last_name'),
    title: f.fmt('title', true),
    phoneNumber: f.fmt('phone', true),
    extension: f.strN(),
    personalMeetingUrls: f.arr('string'),
    settings: f.obj({ webConferencesRecorded: f.bool(), telephonyCallsImported: f.bool() }),
    managerId: f.strN({ format: 'id' }),
    meetingConsentPageUrl: f.fmt('url', true),
    spokenLanguages: f.arr({ language: f.str(), primary: f.bool() }),
  },
  searchable: byType({
    boolean: 'active',
    string:
      'created emailAddress extension firstName id lastName managerId meetingConsentPageUrl phoneNumber title trustedEmailAddress',
    array: 'emailAliases personalMeetingUrls spokenLanguages',
    object: 'settings',
  }),
  params: { cursor: { type: 'string' } },
  read,
};

const callFields: Record<string, FieldSpec> = {
  id: f.str({ format: 'id' }),
  url: f.fmt('url'),
  title: f.fmt('title'),
  ...each(iso, 'scheduled started'),
  primaryUserId: f.str({ format: 'id' }),
  direction: f.oneOf(['Inbound', 'Outbound', 'Conference', 'Unknown']),
  system: f.oneOf(['Zoom', 'Teams', 'Webex', 'Phone']),
  scope: f.oneOf(['Internal', 'External', 'Unknown']),
  media: f.oneOf(['Video', 'Audio']),
  language: f.str(),
  workspaceId: f.str({ format: 'id' }),
  meetingUrl: f.fmt('url'),
  duration: f.int(),
  ...each(f.strN(), 'sdrDisposition clientUniqueId customData purpose calendarEventId'),
  isPrivate: f.bool(),
};

/** "Searchable: same names; duration int; isPrivate boolean; others string." */
const calls: EntityDef = {
  name: 'calls',
  actions: ['list', 'get', 'search'],
  idField: 'id',
  source: 'reference',
  fields: callFields,
  searchable: Object.fromEntries(
    Object.keys(callFields).map((k) => [k, k === 'duration' ? ('int' as const) : k === 'isPrivate' ? ('boolean' as const) : ('string' as const)]),
  ),
  params: { fromDateTime: { type: 'string' }, toDateTime: { type: 'string' }, cursor: { type: 'string' } },
  // `fromDateTime` bounds the call start; calls hardly change after they happen.
  read: { ...read, incremental: { param: 'fromDateTime', field: 'started', format: 'iso_datetime' } },
};

/** Fields "not shown"; `id` mirrors `metaData.id` so each call is one record. */
const calls_extensive: EntityDef = {
  name: 'calls_extensive',
  actions: ['list'],
  idField: 'id',
  source: 'inferred',
  fields: {
    id: f.str({ format: 'id' }),
    metaData: f.obj({ id: f.str(), title: f.fmt('title'), started: iso, duration: f.int() }),
    ...each(f.arr('object'), 'context parties'),
    ...each(f.obj(), 'content interaction collaboration media'),
  },
  params: { filter: { type: 'object', required: true }, contentSelector: { type: 'object' } },
  rules: [
    'Not replicated: `filter` is a required object (dates, call ids) that ReadSpec fixed params (scalars) cannot carry; `calls` holds the same calls',
  ],
};

/** Sales-call intelligence. Credentials "not shown": access key + secret, or OAuth. */
export const salesCallIntelligence = defineConnector({
  key: 'sales_call_intelligence',
  title: 'Sales-call intelligence',
  credentialMethods: [
    { name: 'token', fields: { access_key: { required: true }, access_key_secret: { required: true } } },
    { name: 'oauth', fields: { access_token: { required: true }, refresh_token: { required: false } } },
  ],
  replicationConfig: {},
  entities: byName(users, calls, calls_extensive),
});
