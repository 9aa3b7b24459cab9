import { byName, defineConnector } from '../define.js';
import { byType, each, f, searchOf } from '../field.js';
import type { EntityDef, FieldSpec, ParamSpec, ReadSpec } from '../types.js';

const strN = f.strN();
const unixN = f.intN({ format: 'unix' });
const unix = f.int({ format: 'unix' });
const list = (items: Record<string, FieldSpec>) => f.objN({ type: f.konst('list'), data: f.arr(items) });

/**
 * `per_page` max not shown: 150 is the platform's cap for contacts and conversations, 60 for
 * companies. Cursor paging ends when meta `next_page` is null.
 */
const cursor = (max: number): { params: Record<string, ParamSpec>; read: ReadSpec } => ({
  params: { per_page: { type: 'int', min: 1, max }, starting_after: { type: 'string' } },
  read: { action: 'list', pageSize: { param: 'per_page', max }, paging: { style: 'token', param: 'starting_after', from: 'next_page' } },
});
const whole: Pick<EntityDef, 'params' | 'read'> = { params: {}, read: { action: 'list', paging: { style: 'none' } } };

const contactFields: Record<string, FieldSpec> = {
  type: f.konst('contact'),
  id: f.str({ format: 'id' }),
  workspace_id: strN,
  external_id: strN,
  role: f.oneOf(['user', 'lead'], true),
  email: f.fmt('email', true),
  phone: f.fmt('phone', true),
  name: f.fmt('name', true),
  avatar: f.fmt('url', true),
  ...each(strN, 'language_override browser browser_version browser_language os'),
  ...each(strN, 'android_app_name android_app_version android_device android_os_version android_sdk_version'),
  ...each(strN, 'ios_app_name ios_app_version ios_device ios_os_version ios_sdk_version'),
  owner_id: f.intN(),
  social_profiles: list({ name: f.str(), url: f.fmt('url') }),
  location: f.objN({ city: strN, region: strN, country: f.fmt('country', true) }),
  ...each(list({ id: f.str() }), 'tags notes companies'),
  ...each(f.boolN(), 'has_hard_bounced marked_email_as_spam unsubscribed_from_emails'),
  ...each(unixN, 'created_at updated_at signed_up_at last_seen_at last_replied_at last_contacted_at'),
  ...each(unixN, 'last_email_opened_at last_email_clicked_at android_last_seen_at ios_last_seen_at'),
  custom_attributes: f.objN(),
};

const contacts: EntityDef = {
  name: 'contacts',
  actions: ['list', 'get', 'search'],
  idField: 'id',
  source: 'reference',
  fields: contactFields,
  // "the names above plus ...": every record field with its record type, then the listed extras.
  searchable: {
    ...searchOf(contactFields, Object.keys(contactFields).join(' ')),
    ...byType({
      object: 'opted_in_subscription_types opted_out_subscription_types',
      string: 'referrer utm_campaign utm_content utm_medium utm_source utm_term',
      boolean: 'sms_consent unsubscribed_from_sms',
    }),
  },
  ...cursor(150),
};

const conversationFields: Record<string, FieldSpec> = {
  type: f.konst('conversation'),
  id: f.str({ format: 'id' }),
  title: f.fmt('title', true),
  ...each(unixN, 'created_at updated_at waiting_since snoozed_until'),
  ...each(f.boolN(), 'open read'),
  state: f.oneOf(['open', 'closed', 'snoozed'], true),
  priority: f.oneOf(['priority', 'not_priority'], true),
  admin_assignee_id: f.intN(),
  team_assignee_id: strN,
  tags: list({ id: f.str(), name: f.str() }),
  conversation_rating: f.objN({ rating: f.intN(), remark: strN }),
  source: f.objN({ type: strN, subject: strN, body: f.fmt('text', true), author: f.objN() }),
  contacts: list({ id: f.str() }),
  teammates: list({ id: f.str() }),
  ...each(f.objN(), 'first_contact_reply sla_applied statistics conversation_parts custom_attributes'),
};

/** Searchable fields "not shown": the record's own fields except the bulky message parts. */
const conversations: EntityDef = {
  name: 'conversations',
  actions: ['list', 'get', 'search'],
  idField: 'id',
  source: 'inferred',
  fields: conversationFields,
  searchable: searchOf(
    conversationFields,
    'type id title created_at updated_at waiting_since snoozed_until open read state priority admin_assignee_id ' +
      'team_assignee_id tags conversation_rating source contacts teammates first_contact_reply sla_applied statistics custom_attributes',
  ),
  ...cursor(150),
};

const companyFields: Record<string, FieldSpec> = {
  type: f.konst('company'),
  id: f.str({ format: 'id' }),
  company_id: strN,
  name: f.fmt('company'),
  app_id: f.str(),
  ...each(unix, 'created_at updated_at'),
  ...each(unixN, 'last_request_at remote_created_at'),
  monthly_spend: f.num(),
  ...each(f.int(), 'session_count user_count size'),
  website: f.fmt('url', true),
  industry: strN,
  plan: f.objN({ id: f.str(), name: f.str() }),
  ...each(list({ id: f.str(), name: f.str() }), 'tags segments'),
  custom_attributes: f.objN(),
};

const companies: EntityDef = {
  name: 'companies',
  actions: ['list', 'get', 'search'],
  idField: 'id',
  source: 'inferred',
  fields: companyFields,
  searchable: searchOf(companyFields, Object.keys(companyFields).join(' ')),
  ...cursor(60),
};

const teamFields: Record<string, FieldSpec> = {
  type: f.konst('team'),
  id: f.str({ format: 'id' }),
  name: f.fmt('title'),
  admin_ids: f.arr('int'),
  admin_priority_level: f.objN(),
};

const teams: EntityDef = {
  name: 'teams',
  actions: ['list', 'get', 'search'],
  idField: 'id',
  source: 'inferred',
  fields: teamFields,
  searchable: searchOf(teamFields, 'type id name admin_ids admin_priority_level'),
  ...whole,
};

const plain = (name: string, fields: Record<string, FieldSpec>): EntityDef => ({
  name,
  actions: ['list', 'get'],
  idField: 'id',
  source: 'inferred',
  fields,
  ...whole,
});

const admins = plain('admins', {
  type: f.konst('admin'),
  id: f.str({ format: 'id' }),
  name: f.fmt('name'),
  email: f.fmt('email'),
  job_title: f.fmt('title', true),
  ...each(f.bool(), 'away_mode_enabled away_mode_reassign has_inbox_seat'),
  team_ids: f.arr('int'),
  avatar: f.objN({ image_url: f.fmt('url', true) }),
  email_verified: f.boolN(),
});
const tags = plain('tags', { type: f.konst('tag'), id: f.str({ format: 'id' }), name: f.str(), applied_at: unixN, applied_by: f.objN() });
const segments = plain('segments', {
  type: f.konst('segment'),
  id: f.str({ format: 'id' }),
  name: f.fmt('title'),
  ...each(unix, 'created_at updated_at'),
  person_type: f.oneOf(['user', 'lead']),
  count: f.intN(),
});

/**
 * Customer messaging. Credentials "not shown": one OAuth-style access token (an app's own token
 * is entered the same way, so a separate token method would be ambiguous).
 */
export const customerMessaging = defineConnector({
  key: 'customer_messaging',
  title: 'Customer messaging',
  credentialMethods: [
    { name: 'oauth', fields: { access_token: { required: true }, client_id: { required: false }, client_secret: { required: false } } },
  ],
  replicationConfig: {},
  entities: byName(contacts, conversations, companies, teams, admins, tags, segments),
});
