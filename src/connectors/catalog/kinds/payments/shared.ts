import { f } from '../../field.js';
import type { ParamSpec, ReadSpec } from '../../types.js';

export const LIMIT_RULE = 'Payments list and api_search actions: `limit` 1 to 100, default 10 (overview §8)';

export const unix = f.int({ format: 'unix' });
export const unixN = f.intN({ format: 'unix' });

export const address = f.objN({
  line1: f.strN(),
  line2: f.strN(),
  city: f.strN(),
  state: f.strN(),
  postal_code: f.strN(),
  country: f.fmt('country', true),
});

/** An object param of the reference's time bounds ("`created` object: `created.gt`, … int"), sent nested. */
export const timeBounds: ParamSpec = { type: 'object', keys: { gt: { type: 'int' }, gte: { type: 'int' }, lt: { type: 'int' }, lte: { type: 'int' } } };

/** The created bounds shared by every cursor-paged list (`created.gte` drives incremental reads). */
const createdBounds: Record<string, ParamSpec> = { created: timeBounds };

/** Cursor-paged list params (reference 4.3); the kinds the reference leaves "not shown" reuse them. */
export const cursorListParams: Record<string, ParamSpec> = {
  limit: { type: 'int', min: 1, max: 100, default: 10 },
  starting_after: { type: 'string' },
  ending_before: { type: 'string' },
  ...createdBounds,
};

/**
 * Lists are newest first, so `starting_after` walks backwards in time and `has_more` ends it.
 * `created.gte` only catches new objects; updates to older ones are picked up by the periodic full
 * run (the platform has no updated-since filter on lists).
 */
export const cursorRead: ReadSpec = {
  action: 'list',
  pageSize: { param: 'limit', max: 100, default: 10 },
  paging: { style: 'last_id', param: 'starting_after', hasMore: 'has_more' },
  incremental: { param: 'created.gte', field: 'created', format: 'unix', upperParam: 'created.lt' },
};
