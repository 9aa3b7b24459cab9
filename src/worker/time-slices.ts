/**
 * Splitting a full read of one long, unpartitioned list into time slices read in parallel. A
 * cursor chain reads one page at a time, so on its own it is bound by the upstream's latency;
 * lists with an upper bound on their time filter (payments `created.lt`) can be read as several
 * chains over disjoint time ranges instead.
 *
 * The range is probed through the runtime: the first page gives the newest record (and, when it
 * is the only page, says there is nothing to split); a binary search with one-record pages finds
 * the oldest (about 30 calls). Slices then cover [oldest, newest] exactly.
 */
import type { EntityDef } from '../connectors/catalog/types.js';
import { boundSeconds, firstPageParams, formatBound, nextPageParams, timeSlices, type Partition } from '../connectors/planner.js';
import { fetchRecords, type ReadContext } from './parent-values.js';

/** Time slices for a full read from `sinceSec` (or the beginning), or null when not worth it. */
export async function sliceByTime(rc: ReadContext, entity: EntityDef, sinceSec: number | undefined, count: number): Promise<Partition[] | null> {
  const inc = entity.read?.incremental;
  const pageSize = entity.read?.pageSize;
  if (inc?.upperParam === undefined || pageSize === undefined || count < 2) return null;
  const firstParams = firstPageParams(entity, {}, sinceSec);
  const first = await fetchRecords(rc, entity, firstParams);
  if (nextPageParams(entity, firstParams, first) === null) return null;
  const times = first.records.map((r) => boundSeconds(inc, r[inc.field])).filter((s): s is number => s !== null);
  if (times.length === 0) return null;
  const newest = Math.floor(Math.max(...times));
  // Smallest t with a record created in [since, t): the oldest record was created at t - 1.
  const exists = async (t: number): Promise<boolean> => {
    const params = { ...firstParams, [pageSize.param]: 1, [inc.upperParam as string]: formatBound(inc, t) };
    return (await fetchRecords(rc, entity, params)).records.length > 0;
  };
  let lo = Math.floor(sinceSec ?? 0);
  let hi = newest + 1;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (await exists(mid)) hi = mid;
    else lo = mid;
  }
  const slices = timeSlices(inc, hi - 1, newest + 1, count);
  return slices.length === 0 ? null : slices;
}
