import { byName, defineConnector } from '../define.js';
import { byType, each, f, searchOf } from '../field.js';
import type { EntityDef, FieldSpec, ParamSpec, ReadSpec } from '../types.js';

const iso = f.fmt('iso_datetime', true);
const status = f.oneOf(['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED'], true);
const adlabels = f.arrN({ ...each(f.strN(), 'id name'), created_time: iso, updated_time: iso });

/**
 * The reference shows no maximum for `limit`; 100 is what the platform's own bulk tools page by
 * and is accepted by every edge. Cursor paging (`after`) ends when the meta token is absent, so a
 * server-side cap below 100 cannot end the read early.
 */
const PAGE = 100;
const graphParams: Record<string, ParamSpec> = {
  fields: { type: 'string' },
  limit: { type: 'int', min: 1, max: PAGE },
  after: { type: 'string' },
};
/** Edges under an ad account take `account_id` without the `act_` prefix (config strips it). */
const accountParams: Record<string, ParamSpec> = { account_id: { type: 'string', required: true }, ...graphParams };
const graphRead: ReadSpec = {
  action: 'list',
  pageSize: { param: 'limit', max: PAGE },
  paging: { style: 'token', param: 'after', from: 'after' },
};
const perAccount: ReadSpec = {
  ...graphRead,
  partitions: [{ kind: 'config', param: 'account_id', configField: 'account_ids' }],
};

const current_user: EntityDef = {
  name: 'current_user',
  actions: ['get'],
  idField: 'id',
  source: 'reference',
  fields: { id: f.str({ format: 'id' }), name: f.fmt('name', true) },
};

const adAccountFields: Record<string, FieldSpec> = {
  id: f.str({ format: 'id' }),
  account_id: f.strN({ format: 'id' }),
  name: f.fmt('company', true),
  account_status: f.intN(),
  age: f.numN(),
  amount_spent: f.strN(),
  balance: f.strN(),
  business: f.objN({ id: f.strN(), name: f.fmt('company', true) }),
  business_name: f.fmt('company', true),
  created_time: iso,
  currency: f.fmt('currency', true),
  disable_reason: f.intN(),
  spend_cap: f.strN(),
  timezone_id: f.intN(),
  timezone_name: f.fmt('timezone', true),
};

const ad_accounts: EntityDef = {
  name: 'ad_accounts',
  actions: ['list', 'search'],
  idField: 'id',
  source: 'reference',
  fields: adAccountFields,
  searchable: byType({
    string: 'id account_id name balance currency amount_spent business_name created_time spend_cap timezone_name',
    int: 'account_status',
  }),
  params: graphParams,
  // The accounts the token can reach, not only the configured ones: this entity is the directory.
  read: graphRead,
};

const campaigns: EntityDef = {
  name: 'campaigns',
  actions: ['list', 'get', 'search'],
  idField: 'id',
  source: 'reference',
  fields: {
    id: f.str({ format: 'id' }),
    name: f.fmt('title', true),
    account_id: f.strN({ format: 'id' }),
    adlabels,
    ...each(f.strN(), 'bid_strategy boosted_object_id buying_type configured_status smart_promotion_type'),
    ...each(f.strN(), 'source_campaign_id special_ad_category'),
    budget_rebalance_flag: f.boolN(),
    ...each(f.numN(), 'budget_remaining daily_budget lifetime_budget spend_cap'),
    effective_status: status,
    issues_info: f.arrN(each(f.strN(), 'error_code error_message error_summary error_type level')),
    objective: f.oneOf(['OUTCOME_AWARENESS', 'OUTCOME_TRAFFIC', 'OUTCOME_ENGAGEMENT', 'OUTCOME_LEADS', 'OUTCOME_SALES'], true),
    special_ad_category_country: f.arrN('string'),
    status,
    ...each(iso, 'created_time start_time stop_time updated_time'),
  },
  searchable: byType({
    string: 'id name account_id status effective_status objective created_time start_time stop_time updated_time',
    number: 'daily_budget lifetime_budget budget_remaining',
  }),
  params: accountParams,
  read: perAccount,
};

const adSetFields: Record<string, FieldSpec> = {
  id: f.str({ format: 'id' }),
  name: f.fmt('title', true),
  account_id: f.strN({ format: 'id' }),
  adlabels,
  bid_amount: f.numN(),
  bid_info: f.objN(),
  bid_strategy: f.strN(),
  bid_constraints: f.objN(),
  budget_remaining: f.numN(),
  campaign_id: f.strN({ format: 'id' }),
  created_time: iso,
  daily_budget: f.numN(),
  effective_status: status,
  end_time: iso,
  learning_stage_info: f.objN(),
  lifetime_budget: f.numN(),
  promoted_object: f.objN(),
  start_time: iso,
  targeting: f.objN({ geo_locations: f.objN(), age_min: f.intN(), age_max: f.intN() }),
  updated_time: iso,
};

const ad_sets: EntityDef = {
  name: 'ad_sets',
  actions: ['list', 'get', 'search'],
  idField: 'id',
  source: 'inferred',
  fields: adSetFields,
  searchable: searchOf(
    adSetFields,
    'id name account_id campaign_id effective_status created_time start_time end_time updated_time ' +
      'bid_amount daily_budget lifetime_budget budget_remaining targeting',
  ),
  params: accountParams,
  read: perAccount,
};

const adFields: Record<string, FieldSpec> = {
  id: f.str({ format: 'id' }),
  name: f.fmt('title', true),
  ...each(f.strN({ format: 'id' }), 'account_id adset_id campaign_id'),
  status,
  effective_status: status,
  configured_status: status,
  creative: f.objN({ id: f.strN() }),
  bid_amount: f.intN(),
  tracking_specs: f.arrN('object'),
  ...each(iso, 'created_time updated_time'),
};

const ads: EntityDef = {
  name: 'ads',
  actions: ['list', 'get', 'search'],
  idField: 'id',
  source: 'inferred',
  fields: adFields,
  searchable: searchOf(adFields, 'id name account_id adset_id campaign_id status effective_status creative bid_amount created_time updated_time'),
  params: accountParams,
  read: perAccount,
};

const creativeFields: Record<string, FieldSpec> = {
  id: f.str({ format: 'id' }),
  account_id: f.strN({ format: 'id' }),
  name: f.fmt('title', true),
  title: f.fmt('title', true),
  body: f.fmt('text', true),
  object_type: f.oneOf(['SHARE', 'PAGE', 'VIDEO', 'PHOTO', 'STATUS', 'APPLICATION'], true),
  status,
  ...each(f.fmt('url', true), 'thumbnail_url image_url'),
  call_to_action_type: f.strN(),
  object_story_spec: f.objN(),
  url_tags: f.strN(),
};

const ad_creatives: EntityDef = {
  name: 'ad_creatives',
  actions: ['list', 'search'],
  idField: 'id',
  source: 'inferred',
  fields: creativeFields,
  searchable: searchOf(creativeFields, 'id account_id name title body object_type status thumbnail_url image_url call_to_action_type object_story_spec'),
  params: accountParams,
  read: perAccount,
};

/**
 * Insight rows have no id of their own. Read at `level=ad` over the whole lifetime
 * (`date_preset=maximum`) there is exactly one row per ad, so `ad_id` identifies it.
 */
const insightFields: Record<string, FieldSpec> = {
  ...each(f.str({ format: 'id' }), 'ad_id'),
  ...each(f.strN({ format: 'id' }), 'account_id campaign_id adset_id'),
  ...each(f.fmt('title', true), 'account_name campaign_name adset_name ad_name'),
  ...each(f.fmt('date', true), 'date_start date_stop'),
  ...each(f.intN(), 'impressions clicks reach'),
  ...each(f.numN(), 'spend cpc cpm ctr frequency'),
  actions: f.arrN({ action_type: f.strN(), value: f.strN() }),
};

const ads_insights: EntityDef = {
  name: 'ads_insights',
  actions: ['list', 'search'],
  idField: 'ad_id',
  source: 'inferred',
  fields: insightFields,
  searchable: searchOf(
    insightFields,
    'ad_id account_id campaign_id adset_id account_name campaign_name adset_name ad_name date_start date_stop ' +
      'impressions clicks reach spend cpc cpm ctr frequency actions',
  ),
  params: {
    ...accountParams,
    level: { type: 'string', enum: ['ad', 'adset', 'campaign', 'account'] },
    date_preset: { type: 'string', enum: ['today', 'yesterday', 'last_7d', 'last_30d', 'maximum'] },
  },
  read: { ...perAccount, fixedParams: { level: 'ad', date_preset: 'maximum' } },
};

const ad_account: EntityDef = {
  name: 'ad_account',
  actions: ['get', 'search'],
  idField: 'id',
  source: 'inferred',
  fields: adAccountFields,
  searchable: searchOf(
    adAccountFields,
    'id account_id name account_status amount_spent balance business_name created_time currency spend_cap timezone_name disable_reason',
  ),
  // Params not shown: the Graph node of one account (`act_<id>`), addressed like the edges under it.
  params: { account_id: { type: 'string', required: true }, fields: { type: 'string' } },
  // No list: one `get` per configured account id. A full run that no longer finds an account
  // (dropped from account_ids, or a get answering 404) tombstones it like any record missing from a list.
  read: { action: 'get', paging: { style: 'none' }, partitions: perAccount.partitions },
  rules: ['Replicated by one `get` per configured account id (no list exists); `ad_accounts` is the directory of every reachable account'],
};

const conversionFields: Record<string, FieldSpec> = {
  id: f.str({ format: 'id' }),
  account_id: f.strN({ format: 'id' }),
  name: f.fmt('title', true),
  description: f.fmt('text', true),
  custom_event_type: f.oneOf(['PURCHASE', 'LEAD', 'COMPLETE_REGISTRATION', 'ADD_TO_CART', 'OTHER'], true),
  rule: f.strN(),
  ...each(iso, 'creation_time last_fired_time'),
  ...each(f.boolN(), 'is_archived is_unavailable'),
  pixel: f.objN({ id: f.strN() }),
  default_conversion_value: f.numN(),
};

const custom_conversions: EntityDef = {
  name: 'custom_conversions',
  actions: ['list', 'search'],
  idField: 'id',
  source: 'inferred',
  fields: conversionFields,
  searchable: searchOf(conversionFields, 'id account_id name description custom_event_type rule creation_time last_fired_time is_archived default_conversion_value'),
  params: accountParams,
  read: perAccount,
};

const imageFields: Record<string, FieldSpec> = {
  id: f.str({ format: 'id' }),
  hash: f.strN(),
  account_id: f.strN({ format: 'id' }),
  name: f.fmt('title', true),
  ...each(f.fmt('url', true), 'url url_128 permalink_url'),
  ...each(f.intN(), 'width height'),
  status: f.oneOf(['ACTIVE', 'INTERNAL', 'DELETED'], true),
  ...each(iso, 'created_time updated_time'),
};

const images: EntityDef = {
  name: 'images',
  actions: ['list', 'search'],
  idField: 'id',
  source: 'inferred',
  fields: imageFields,
  searchable: searchOf(imageFields, 'id hash account_id name url permalink_url width height status created_time updated_time'),
  params: accountParams,
  read: perAccount,
};

const videoFields: Record<string, FieldSpec> = {
  id: f.str({ format: 'id' }),
  account_id: f.strN({ format: 'id' }),
  title: f.fmt('title', true),
  description: f.fmt('text', true),
  ...each(f.fmt('url', true), 'source picture permalink_url'),
  length: f.numN(),
  embeddable: f.boolN(),
  ...each(iso, 'created_time updated_time'),
};

const videos: EntityDef = {
  name: 'videos',
  actions: ['list', 'search'],
  idField: 'id',
  source: 'inferred',
  fields: videoFields,
  searchable: searchOf(videoFields, 'id account_id title description permalink_url length embeddable created_time updated_time'),
  params: accountParams,
  read: perAccount,
};

/** Ad-platform marketing (overview §4.1 `account_ids`, §5.2 OAuth or Token). */
export const adPlatformMarketing = defineConnector({
  key: 'ad_platform_marketing',
  title: 'Ad-platform marketing',
  credentialMethods: [
    { name: 'oauth', fields: { access_token: { required: true }, client_id: { required: false }, client_secret: { required: false } } },
    { name: 'token', fields: { account_key: { required: true } } },
  ],
  replicationConfig: {
    account_ids: {
      type: 'string',
      required: true,
      description: 'Ad account id(s) to pull data from; several separated by commas; `act_` prefix optional',
      list: true,
      stripPrefix: 'act_',
    },
  },
  entities: byName(current_user, ad_accounts, campaigns, ad_sets, ads, ad_creatives, ads_insights, ad_account, custom_conversions, images, videos),
});
