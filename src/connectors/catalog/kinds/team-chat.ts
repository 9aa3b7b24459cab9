import { byName, defineConnector } from '../define.js';
import { byType, each, f, searchOf } from '../field.js';
import type { EntityDef, FieldSpec, ReadSpec } from '../types.js';

const strN = f.strN();
const unixN = f.intN({ format: 'unix' });

/**
 * `limit` has no maximum in the reference; 200 is the platform's recommended page size. Paging
 * ends when meta `next_cursor` is empty, so a smaller server cap cannot end a read early.
 */
const PAGE = 200;
const read: ReadSpec = {
  action: 'list',
  pageSize: { param: 'limit', max: PAGE },
  paging: { style: 'token', param: 'cursor', from: 'next_cursor' },
};

const users: EntityDef = {
  name: 'users',
  actions: ['list', 'get', 'search'],
  idField: 'id',
  source: 'reference',
  fields: {
    id: f.str({ format: 'id' }),
    team_id: strN,
    name: strN,
    deleted: f.boolN(),
    color: f.fmt('color', true),
    real_name: f.fmt('name', true),
    tz: f.fmt('timezone', true),
    tz_label: strN,
    tz_offset: f.intN(),
    profile: f.objN({ email: f.fmt('email', true), title: f.fmt('title', true), phone: f.fmt('phone', true), display_name: strN }),
    ...each(f.boolN(), 'is_admin is_owner is_primary_owner is_restricted is_ultra_restricted is_bot is_app_user'),
    updated: unixN,
    is_email_confirmed: f.boolN(),
    who_can_share_contact_card: f.oneOf(['EVERYONE', 'NO_ONE'], true),
  },
  searchable: byType({
    string: 'color id name real_name team_id tz tz_label who_can_share_contact_card',
    boolean:
      'deleted has_2fa is_admin is_app_user is_bot is_email_confirmed is_forgotten is_invited_user is_owner ' +
      'is_primary_owner is_restricted is_ultra_restricted',
    object: 'profile',
    int: 'tz_offset updated',
  }),
  params: { cursor: { type: 'string' }, limit: { type: 'int', min: 1, max: PAGE } },
  read,
};

const channelFields: Record<string, FieldSpec> = {
  id: f.str({ format: 'id' }),
  name: strN,
  ...each(f.boolN(), 'is_channel is_group is_im is_mpim is_private is_archived is_general'),
  created: unixN,
  unlinked: f.intN(),
  name_normalized: strN,
  ...each(f.boolN(), 'is_shared is_org_shared is_pending_ext_shared is_ext_shared is_member is_thread_only is_read_only'),
  pending_shared: f.arrN('string'),
  context_team_id: strN,
  updated: unixN,
  creator: strN,
  ...each(f.arrN('string'), 'shared_team_ids pending_connected_team_ids previous_names'),
  topic: f.objN({ value: f.fmt('text'), creator: strN, last_set: unixN }),
  purpose: f.objN({ value: f.fmt('text'), creator: strN, last_set: unixN }),
  num_members: f.intN(),
  parent_conversation: strN,
  properties: f.objN(),
};

const channels: EntityDef = {
  name: 'channels',
  actions: ['list', 'get', 'create', 'update', 'search'],
  idField: 'id',
  source: 'inferred',
  fields: channelFields,
  searchable: searchOf(
    channelFields,
    'id name name_normalized is_channel is_group is_im is_mpim is_private is_archived is_general is_shared ' +
      'is_org_shared is_ext_shared is_member created updated creator context_team_id shared_team_ids previous_names topic purpose num_members',
  ),
  params: {
    cursor: { type: 'string' },
    limit: { type: 'int', min: 1, max: PAGE },
    types: { type: 'string' },
    exclude_archived: { type: 'boolean' },
  },
  // Public and private channels, archived included, so the copy holds what a user can find.
  read: { ...read, fixedParams: { types: 'public_channel,private_channel', exclude_archived: false } },
  rules: ['create/update: channel name lowercase, no spaces, at most 80 characters (overview §8)'],
};

/** Team chat. Credentials "not shown": a bot/user token, or an OAuth access token. */
export const teamChat = defineConnector({
  key: 'team_chat',
  title: 'Team chat',
  credentialMethods: [
    { name: 'token', fields: { api_token: { required: true } } },
    { name: 'oauth', fields: { access_token: { required: true }, client_id: { required: false }, client_secret: { required: false } } },
  ],
  replicationConfig: {},
  entities: byName(users, channels),
});
