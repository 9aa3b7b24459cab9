import { byName, defineConnector } from '../define.js';
import { byType, each, f, searchOf } from '../field.js';
import type { EntityDef, FieldSpec, ParamSpec, ReadSpec } from '../types.js';

const isoN = f.fmt('iso_datetime', true);
const strN = f.strN();

/** `agents`/`bans`: `since_id` carries the last id of the previous page; an empty page ends it. */
const sinceIdParams: Record<string, ParamSpec> = { limit: { type: 'int', min: 1, max: 100 }, since_id: { type: 'int' } };
const sinceIdRead: ReadSpec = { action: 'list', pageSize: { param: 'limit', max: 100 }, paging: { style: 'last_id', param: 'since_id' } };

/**
 * Incremental export (`chats`, `agent_timeline`): the first call carries the lower bound in
 * `start_time` (unix seconds); every later call carries meta `next_page` back in `start_time`.
 * Where a runtime returns the vendor's next-page URL, its `start_time` query value is the token.
 * The export always offers a next page, so paging ends when the token stops advancing (DESIGN §5).
 */
const exportParams: Record<string, ParamSpec> = {
  start_time: { type: 'int', min: 0 },
  limit: { type: 'int', min: 1, max: 1000 },
  fields: { type: 'string' },
};
const exportRead = (field: string): ReadSpec => ({
  action: 'list',
  pageSize: { param: 'limit', max: 1000 },
  paging: { style: 'token', param: 'start_time', from: 'next_page', endWhenUnchanged: true },
  incremental: { param: 'start_time', field, format: 'iso_datetime', paramFormat: 'unix' },
});
/** Settings-like collections come back whole. */
const wholeRead: ReadSpec = { action: 'list', paging: { style: 'none' } };

const accounts: EntityDef = {
  name: 'accounts',
  actions: ['get'],
  idField: 'account_key',
  source: 'reference',
  fields: {
    account_key: f.str({ format: 'id' }),
    status: f.oneOf(['active', 'inactive'], true),
    create_date: isoN,
    billing: f.objN({ company: f.fmt('company', true), email: f.fmt('email', true) }),
    plan: f.objN({ name: f.oneOf(['lite', 'team', 'professional', 'enterprise']) }),
  },
};

const agents: EntityDef = {
  name: 'agents',
  actions: ['list', 'get', 'search'],
  idField: 'id',
  source: 'reference',
  fields: {
    id: f.int(),
    email: f.fmt('email', true),
    display_name: f.fmt('name', true),
    first_name: f.fmt('first_name', true),
    last_name: f.fmt('last_name', true),
    enabled: f.boolN(),
    role_id: f.intN(),
    roles: f.objN({ administrator: f.bool(), owner: f.bool() }),
    ...each(f.arrN('int'), 'departments enabled_departments'),
    skills: f.arrN('int'),
    scope: f.oneOf(['all', 'department'], true),
    ...each(isoN, 'create_date last_login'),
    login_count: f.intN(),
  },
  searchable: byType({
    int: 'id role_id',
    string: 'email display_name first_name last_name create_date',
    boolean: 'enabled',
    array: 'departments',
  }),
  params: sinceIdParams,
  read: sinceIdRead,
};

/** Timeline rows have no id; the replication convention of this kind composes `{agent_id}|{start_time}`. */
const agent_timeline: EntityDef = {
  name: 'agent_timeline',
  actions: ['list'],
  idField: 'id',
  composedId: { from: ['agent_id', 'start_time'], separator: '|' },
  source: 'reference',
  fields: {
    id: f.str(),
    agent_id: f.int(),
    start_time: isoN,
    status: f.oneOf(['online', 'away', 'invisible'], true),
    duration: f.numN(),
    engagement_count: f.intN(),
  },
  params: exportParams,
  read: exportRead('start_time'),
};

const bans: EntityDef = {
  name: 'bans',
  actions: ['list', 'get'],
  idField: 'id',
  source: 'reference',
  fields: {
    id: f.int(),
    type: f.oneOf(['ip_address', 'visitor'], true),
    ip_address: f.fmt('ip', true),
    visitor_id: strN,
    visitor_name: f.fmt('name', true),
    reason: f.fmt('text', true),
    created_at: isoN,
  },
  params: sinceIdParams,
  read: sinceIdRead,
};

const chats: EntityDef = {
  name: 'chats',
  actions: ['list', 'get', 'search'],
  idField: 'id',
  source: 'reference',
  fields: {
    id: f.str({ format: 'id' }),
    type: f.oneOf(['chat', 'offline_msg'], true),
    ...each(isoN, 'timestamp update_timestamp'),
    duration: f.intN(),
    department_id: f.intN(),
    department_name: strN,
    agent_ids: f.arrN('string'),
    agent_names: f.arrN('string'),
    visitor: f.objN({ name: f.fmt('name', true), email: f.fmt('email', true), phone: f.fmt('phone', true) }),
    session: f.objN({ browser: strN, city: strN, country_code: f.fmt('country', true), ip: f.fmt('ip', true) }),
    history: f.arrN({
      ...each(strN, 'type timestamp name nick msg msg_id channel department_name rating new_rating options'),
      department_id: f.intN(),
      ...each(f.arrN('string'), 'tags new_tags'),
    }),
    engagements: f.arrN({
      ...each(strN, 'id agent_id agent_name agent_full_name timestamp started_by rating comment'),
      department_id: f.intN(),
      duration: f.numN(),
      ...each(f.boolN(), 'accepted assigned skills_fulfilled'),
      ...each(f.objN(), 'count response_time'),
      skills_requested: f.arrN('int'),
    }),
    conversions: f.arrN({ ...each(strN, 'id goal_name timestamp'), goal_id: f.intN(), attribution: f.objN() }),
    ...each(f.objN(), 'count response_time'),
    rating: f.oneOf(['good', 'bad'], true),
    comment: f.fmt('text', true),
    tags: f.arrN('string'),
    started_by: f.oneOf(['visitor', 'agent', 'trigger'], true),
    ...each(f.boolN(), 'triggered triggered_response missed unread deleted'),
    message: f.fmt('text', true),
    webpath: f.arrN({ from: f.fmt('url', true), timestamp: strN }),
    helpdesk_ticket_id: f.intN(),
  },
  // The seven shown fields as shown, then the record's own scalars and lists (the rest is "not shown").
  searchable: byType({
    string: 'id timestamp update_timestamp department_name rating type comment started_by message',
    int: 'department_id duration helpdesk_ticket_id',
    array: 'agent_ids agent_names tags',
    object: 'visitor session',
    boolean: 'missed unread deleted triggered',
  }),
  params: exportParams,
  read: exportRead('update_timestamp'),
};

const simple = (
  name: string,
  actions: EntityDef['actions'],
  fields: Record<string, FieldSpec>,
  searchable?: string,
): EntityDef => ({
  name,
  actions,
  idField: 'id',
  source: 'inferred',
  fields,
  ...(searchable === undefined ? {} : { searchable: searchOf(fields, searchable) }),
  params: {},
  read: wholeRead,
});

const named = { id: f.int(), name: f.fmt('title'), description: f.fmt('text', true), enabled: f.bool() };

const departments = simple('departments', ['list', 'get', 'search'], { ...named, members: f.arr('int'), settings: f.obj() }, 'id name description enabled members settings');
const goals = simple('goals', ['list', 'get'], {
  ...named,
  attribution_model: f.oneOf(['first_touch', 'last_touch']),
  attribution_period: f.int(),
  settings: f.obj(),
});
const roles = simple('roles', ['list', 'get'], { ...named, permissions: f.obj(), members: f.arr('int') });
const shortcuts = simple(
  'shortcuts',
  ['list', 'get', 'search'],
  { id: f.int(), name: f.str(), message: f.fmt('text'), options: f.strN(), tags: f.arr('string'), departments: f.arr('int'), agents: f.arr('int'), scope: f.oneOf(['all', 'department', 'agent']) },
  'id name message options tags departments agents scope',
);
const skills = simple('skills', ['list', 'get'], { ...named, members: f.arr('int') });
const triggers = simple(
  'triggers',
  ['list', 'search'],
  { ...named, run_once: f.bool(), definition: f.obj({ event: f.oneOf(['chat_requested', 'chat_message', 'page_enter']) }) },
  'id name description enabled run_once definition',
);

/** One settings object per account; `id` is its constant key. */
const routing_settings: EntityDef = {
  name: 'routing_settings',
  actions: ['get'],
  idField: 'id',
  source: 'inferred',
  fields: {
    id: f.konst('account'),
    routing_mode: f.oneOf(['assigned', 'broadcast']),
    ...each(f.obj(), 'chat_limit skill_routing reassignment auto_idle auto_accept'),
  },
};

/** Live-chat support. Credentials "not shown": the platform's chat API takes OAuth tokens only. */
export const liveChatSupport = defineConnector({
  key: 'live_chat_support',
  title: 'Live-chat support',
  credentialMethods: [
    {
      name: 'oauth',
      fields: { access_token: { required: true }, refresh_token: { required: false }, client_id: { required: false }, client_secret: { required: false } },
    },
  ],
  replicationConfig: {},
  entities: byName(accounts, agents, agent_timeline, bans, chats, departments, goals, roles, routing_settings, shortcuts, skills, triggers),
});
