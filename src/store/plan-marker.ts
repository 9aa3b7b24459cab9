/**
 * The leading comment of a search statement whose best plan is the same for every value it is
 * run with (compile-search.ts decides which): the search pool runs it on connections that plan a
 * named statement once and keep that plan (callback-pool.ts). Operators see it in pg_stat_activity.
 */
export const GENERIC_PLAN = '/* syncdex: generic plan */ ';
