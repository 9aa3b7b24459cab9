import { byName, defineConnector } from '../define.js';
import { byType, each, f } from '../field.js';
import type { EntityDef } from '../types.js';

const strN = f.strN();
const state = f.oneOf(['enabled', 'paused', 'archived'], true);

/** A short list that comes back whole (no paging params). */
const profiles: EntityDef = {
  name: 'profiles',
  actions: ['list', 'get', 'search'],
  idField: 'profileId',
  source: 'reference',
  fields: {
    profileId: f.int(),
    countryCode: f.fmt('country', true),
    currencyCode: f.fmt('currency', true),
    dailyBudget: f.numN(),
    timezone: f.fmt('timezone', true),
    accountInfo: f.objN({ id: f.str(), name: f.fmt('company'), type: f.oneOf(['seller', 'vendor', 'agency']), marketplaceStringId: f.str() }),
  },
  searchable: byType({ object: 'accountInfo', string: 'countryCode currencyCode timezone', number: 'dailyBudget', int: 'profileId' }),
  params: { profileTypeFilter: { type: 'string' } },
  read: { action: 'list', paging: { style: 'none' } },
};

/**
 * Portfolio and campaign records are shown for `get` only; list records are assumed alike. Ids are
 * `string|int` in the reference; stored as strings. The advertiser profile these calls run under is
 * the runtime's (no profile param is shown), so they are not partitioned per profile.
 */
const portfolios: EntityDef = {
  name: 'portfolios',
  actions: ['list', 'get'],
  idField: 'portfolioId',
  source: 'reference',
  fields: {
    portfolioId: f.str({ format: 'id' }),
    name: f.fmt('title', true),
    budget: f.objN({ amount: f.num(), policy: f.oneOf(['dateRange', 'monthlyRecurring']) }),
    inBudget: f.boolN(),
    state,
    ...each(f.intN({ format: 'unix' }), 'creationDate lastUpdatedDate'),
    servingStatus: strN,
  },
  params: { includeExtendedDataFields: { type: 'string' } },
  read: { action: 'list', paging: { style: 'none' } },
};

const sponsored_product_campaigns: EntityDef = {
  name: 'sponsored_product_campaigns',
  actions: ['list', 'get'],
  idField: 'campaignId',
  source: 'reference',
  fields: {
    campaignId: f.str({ format: 'id' }),
    portfolioId: f.strN({ format: 'id' }),
    name: f.fmt('title', true),
    campaignType: f.oneOf(['sponsoredProducts'], true),
    tags: f.objN(),
    targetingType: f.oneOf(['manual', 'auto'], true),
    premiumBidAdjustment: f.boolN(),
    state,
    ...each(f.objN(), 'dynamicBidding bidding budget offAmazonSettings extendedData'),
    ...each(f.fmt('date', true), 'startDate endDate'),
    dailyBudget: f.numN(),
    marketplaceBudgetAllocation: strN,
  },
  // `maxResults` max not shown; 100 is accepted everywhere and token paging is not ended by a cap.
  params: { stateFilter: { type: 'object' }, maxResults: { type: 'int', min: 1, max: 100 }, nextToken: { type: 'string' } },
  read: { action: 'list', pageSize: { param: 'maxResults', max: 100 }, paging: { style: 'token', param: 'nextToken', from: 'nextToken' } },
};

/** Retail advertising. Credentials "not shown": OAuth with a refresh token (access tokens live an hour). */
export const retailAdvertising = defineConnector({
  key: 'retail_advertising',
  title: 'Retail advertising',
  credentialMethods: [
    {
      name: 'oauth',
      fields: { refresh_token: { required: true }, access_token: { required: false }, client_id: { required: false }, client_secret: { required: false } },
    },
  ],
  replicationConfig: {},
  entities: byName(profiles, portfolios, sponsored_product_campaigns),
});
