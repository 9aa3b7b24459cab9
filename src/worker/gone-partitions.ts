/**
 * Child lists whose parent was deleted during a run. A run resolves its partition list once and
 * keeps it in its checkpoint (resumes and replays reuse it), so a parent deleted after that makes
 * its child list answer 404 every time the run gets there. Such a partition is read as empty: the
 * run goes on, and at the end of a full run the children it held are tombstoned like any record
 * not seen.
 *
 * A 404 alone does not say which thing is missing: the runtime answers 404 as well for a list it
 * does not have. So a partition counts as gone only when the parents no longer yield it: the
 * partition list is resolved afresh through the runtime, and a 404 for a partition still in it
 * (or for a partition with no parent) fails the run as before.
 */
import type { EntityDef } from '../connectors/catalog/types.js';
import { parentDims, type Partition } from '../connectors/planner.js';
import { AppError } from '../errors.js';
import { resolvePartitions, type ReadContext } from './parent-values.js';

const keyOf = (p: Partition): string => JSON.stringify(Object.entries(p).map(([k, v]) => [k, String(v)]).sort());

/** The partitions of one execution of a run found gone; re-resolves the parents on demand. */
export class GonePartitions {
  private latest: Promise<Set<string>> | null = null;

  constructor(
    private readonly rc: ReadContext,
    private readonly entity: EntityDef,
  ) {}

  /** Whether the parents, read now, no longer yield `partition` (a partition without a parent never is). */
  async isGone(partition: Partition): Promise<boolean> {
    if (!parentDims(this.entity).some((d) => Object.hasOwn(partition, d.param))) return false;
    const key = keyOf(partition);
    // Missing from a resolution made after the run planned it: gone. Present there: it may have
    // gone since that resolution, so only a fresh one can tell.
    if (this.latest !== null && !(await this.latest).has(key)) return true;
    const fresh = resolvePartitions(this.rc, this.entity).then((ps) => new Set(ps.map(keyOf)));
    this.latest = fresh;
    return !(await fresh).has(key);
  }
}

/** The error of a 404 whose partition is still planned: the list itself is missing. */
export function listMissing(e: AppError, entity: EntityDef, partition: Partition): AppError {
  const where = Object.keys(partition).length === 0 ? '' : ` for ${JSON.stringify(partition)}`;
  return new AppError('upstream_error', `${e.message} (the runtime has no ${entity.name} list${where}, though its parents are still listed)`, { upstreamStatus: 404, cause: e });
}
