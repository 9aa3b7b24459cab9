import { each, f, searchOf } from '../../field.js';
import type { EntityDef, FieldSpec } from '../../types.js';
import { countParams, isoN, offsetRead, perCampaign } from './shared.js';

// Fields of reports, email activity, automations and unsubscribes are "not shown"; inferred.

const reportFields: Record<string, FieldSpec> = {
  id: f.str({ format: 'id' }),
  campaign_title: f.fmt('title'),
  type: f.oneOf(['regular', 'plaintext', 'absplit', 'rss', 'variate']),
  list_id: f.str({ format: 'id' }),
  list_is_active: f.bool(),
  list_name: f.fmt('title'),
  subject_line: f.fmt('title'),
  preview_text: f.fmt('text', true),
  ...each(f.int(), 'emails_sent abuse_reports unsubscribed'),
  send_time: isoN,
  ...each(f.obj(), 'bounces forwards opens clicks list_stats'),
  ...each(f.objN(), 'facebook_likes industry_stats ecommerce delivery_status'),
};

export const reports: EntityDef = {
  name: 'reports',
  actions: ['list', 'get', 'search'],
  idField: 'id',
  source: 'inferred',
  fields: reportFields,
  searchable: searchOf(
    reportFields,
    'id campaign_title type list_id list_is_active list_name subject_line preview_text emails_sent abuse_reports ' +
      'unsubscribed send_time bounces forwards opens clicks list_stats industry_stats ecommerce delivery_status',
  ),
  params: { ...countParams, type: { type: 'string' }, before_send_time: { type: 'string' }, since_send_time: { type: 'string' } },
  read: offsetRead,
};

/**
 * One record per recipient of one campaign. The platform's rows carry no id and `email_id` repeats
 * across campaigns, so `id` is composed as `{campaign_id}:{email_id}`.
 */
const activityFields: Record<string, FieldSpec> = {
  id: f.str(),
  ...each(f.str({ format: 'id' }), 'campaign_id list_id email_id'),
  list_is_active: f.bool(),
  email_address: f.fmt('email'),
  activity: f.arr({
    action: f.oneOf(['open', 'click', 'bounce']),
    type: f.strN(),
    timestamp: f.fmt('iso_datetime'),
    url: f.fmt('url', true),
    ip: f.fmt('ip', true),
  }),
};

export const email_activity: EntityDef = {
  name: 'email_activity',
  actions: ['list', 'search'],
  idField: 'id',
  composedId: { from: ['campaign_id', 'email_id'], separator: ':' },
  source: 'inferred',
  fields: activityFields,
  searchable: searchOf(activityFields, 'id campaign_id list_id email_id list_is_active email_address activity'),
  params: { campaign_id: { type: 'string', required: true }, ...countParams, since: { type: 'string' } },
  read: perCampaign,
};

export const automations: EntityDef = {
  name: 'automations',
  actions: ['list'],
  idField: 'id',
  source: 'inferred',
  fields: {
    id: f.str({ format: 'id' }),
    create_time: f.fmt('iso_datetime'),
    start_time: isoN,
    status: f.oneOf(['save', 'paused', 'sending']),
    emails_sent: f.int(),
    ...each(f.obj(), 'recipients settings tracking trigger_settings report_summary'),
  },
  params: { ...countParams, before_create_time: { type: 'string' }, since_create_time: { type: 'string' }, status: { type: 'string' } },
  read: offsetRead,
};

/** Same composition as email activity: `{campaign_id}:{email_id}`. */
export const unsubscribes: EntityDef = {
  name: 'unsubscribes',
  actions: ['list'],
  idField: 'id',
  composedId: { from: ['campaign_id', 'email_id'], separator: ':' },
  source: 'inferred',
  fields: {
    id: f.str(),
    ...each(f.str({ format: 'id' }), 'campaign_id list_id email_id'),
    email_address: f.fmt('email'),
    merge_fields: f.obj({ FNAME: f.fmt('first_name', true), LNAME: f.fmt('last_name', true) }),
    vip: f.bool(),
    timestamp: f.fmt('iso_datetime'),
    reason: f.fmt('text', true),
    list_is_active: f.bool(),
  },
  params: { campaign_id: { type: 'string', required: true }, ...countParams },
  read: perCampaign,
};
