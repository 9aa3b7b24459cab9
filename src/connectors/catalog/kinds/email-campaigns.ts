import { byName, defineConnector, stringParams } from '../define.js';
import { byType, each, f } from '../field.js';
import type { EntityDef } from '../types.js';
import { interest_categories, interests, list_members, segment_members, segments, tags } from './email-campaigns/audience.js';
import { automations, email_activity, reports, unsubscribes } from './email-campaigns/reports.js';
import { countParams, isoN, offsetRead } from './email-campaigns/shared.js';

const strN = f.strN();
const campaignStatus = ['save', 'paused', 'schedule', 'sending', 'sent'];
const sortDir = { type: 'string', enum: ['ASC', 'DESC'] } as const;

const campaigns: EntityDef = {
  name: 'campaigns',
  actions: ['list', 'get', 'search'],
  idField: 'id',
  source: 'reference',
  fields: {
    id: f.str({ format: 'id' }),
    web_id: f.intN(),
    parent_campaign_id: strN,
    type: f.oneOf(['regular', 'plaintext', 'absplit', 'rss', 'variate'], true),
    ...each(isoN, 'create_time send_time'),
    ...each(f.fmt('url', true), 'archive_url long_archive_url'),
    status: f.oneOf(campaignStatus, true),
    content_type: f.oneOf(['template', 'html', 'url', 'multichannel'], true),
    emails_sent: f.intN(),
    ...each(f.boolN(), 'needs_block_refresh resendable'),
    recipients: f.objN({ list_id: f.str(), list_name: f.fmt('title'), recipient_count: f.int() }),
    settings: f.objN({ subject_line: f.fmt('title'), title: f.fmt('title'), from_name: f.fmt('name'), reply_to: f.fmt('email') }),
    ...each(f.objN(), 'tracking report_summary delivery_status'),
  },
  searchable: byType({
    object:
      'ab_split_opts delivery_status recipients report_summary rss_opts settings social_card tracking variate_settings',
    string: 'archive_url content_type create_time id long_archive_url parent_campaign_id send_time status type',
    int: 'emails_sent web_id',
    boolean: 'needs_block_refresh resendable',
  }),
  params: {
    ...countParams,
    type: { type: 'string', enum: ['regular', 'plaintext', 'absplit', 'rss', 'variate'] },
    status: { type: 'string', enum: campaignStatus },
    ...stringParams('before_send_time since_send_time before_create_time since_create_time list_id folder_id'),
    sort_field: { type: 'string', enum: ['create_time', 'send_time'] },
    sort_dir: sortDir,
  },
  /**
   * Oldest first by creation, so offsets stay stable while new campaigns arrive. Incremental runs
   * take campaigns created since the cursor; status and report changes of older campaigns are
   * picked up by the periodic full run (no modified-since filter exists).
   */
  read: {
    ...offsetRead,
    fixedParams: { sort_field: 'create_time', sort_dir: 'ASC' },
    incremental: { param: 'since_create_time', field: 'create_time', format: 'iso_datetime' },
  },
  rules: ['`list`: `count` default 10, at most 1000 (overview §8)'],
};

const lists: EntityDef = {
  name: 'lists',
  actions: ['list', 'get', 'search'],
  idField: 'id',
  source: 'reference',
  fields: {
    id: f.str({ format: 'id' }),
    web_id: f.intN(),
    name: f.fmt('title', true),
    permission_reminder: f.fmt('text', true),
    ...each(f.fmt('email', true), 'notify_on_subscribe notify_on_unsubscribe beamer_address'),
    date_created: isoN,
    ...each(f.fmt('url', true), 'subscribe_url_short subscribe_url_long'),
    visibility: f.oneOf(['pub', 'prv'], true),
    contact: f.objN({ company: f.fmt('company'), city: f.str(), country: f.fmt('country') }),
    campaign_defaults: f.objN({ from_name: f.fmt('name'), from_email: f.fmt('email'), subject: f.fmt('title') }),
    stats: f.objN({ member_count: f.int(), unsubscribe_count: f.int(), campaign_count: f.int() }),
    ...each(f.boolN(), 'use_archive_bar email_type_option double_optin has_welcome marketing_permissions'),
    list_rating: f.intN(),
  },
  // "the same names plus modules array": record names with their record types, plus `modules`.
  searchable: byType({
    object: 'campaign_defaults contact stats',
    boolean: 'double_optin email_type_option has_welcome marketing_permissions use_archive_bar',
    int: 'list_rating web_id',
    array: 'modules',
    string:
      'id name permission_reminder notify_on_subscribe notify_on_unsubscribe date_created subscribe_url_short ' +
      'subscribe_url_long beamer_address visibility',
  }),
  params: {
    ...countParams,
    ...stringParams('before_date_created since_date_created before_campaign_last_sent since_campaign_last_sent email'),
    sort_field: { type: 'string', enum: ['date_created'] },
    sort_dir: sortDir,
  },
  read: {
    ...offsetRead,
    fixedParams: { sort_field: 'date_created', sort_dir: 'ASC' },
    incremental: { param: 'since_date_created', field: 'date_created', format: 'iso_datetime' },
  },
};

/** Email campaigns (count/offset paging, meta `total_items`). Credentials "not shown": API key or OAuth. */
export const emailCampaigns = defineConnector({
  key: 'email_campaigns',
  title: 'Email campaigns',
  credentialMethods: [
    { name: 'token', fields: { api_key: { required: true } } },
    { name: 'oauth', fields: { access_token: { required: true }, client_id: { required: false }, client_secret: { required: false } } },
  ],
  replicationConfig: {},
  entities: byName(
    campaigns,
    lists,
    list_members,
    reports,
    email_activity,
    automations,
    tags,
    interest_categories,
    interests,
    segments,
    segment_members,
    unsubscribes,
  ),
});
