/** Faults the sandbox injects on request, consumed one per matching execute call. */
export interface FaultSpec {
  /**
   * `null_cursor`: the page is served as usual but its paging token is null, whatever the page's
   * flag says (`hasNextPage: true, endCursor: null`): the reference types such cursors `string?`.
   */
  readonly kind: 'status' | 'slow' | 'truncated' | 'null_cursor';
  /** HTTP status for `status` faults (429, 500, 401, ...). */
  readonly status?: number;
  /** Retry-After seconds sent with a 429 (default 1) or a 503 (default none). */
  readonly retryAfterSec?: number;
  /** Delay before answering, for `slow`. */
  readonly delayMs?: number;
  /** How many calls it hits (default 1); -1 = every call until cleared. */
  readonly count?: number;
  readonly connectorType?: string;
  readonly entity?: string;
  readonly message?: string;
  /** Matching calls that pass untouched before the fault starts (a failure in mid-run). */
  readonly afterCalls?: number;
}

/** A FIFO of armed faults. */
export class FaultPlan {
  private faults: { spec: FaultSpec; left: number; skip: number }[] = [];
  private readonly calls = new Map<string, number>();

  arm(spec: FaultSpec): void {
    this.faults.push({ spec, left: spec.count ?? 1, skip: spec.afterCalls ?? 0 });
  }

  private readonly inFlight = new Map<string, { now: number; max: number }>();

  /** Marks an execute call in flight (tests assert that runs of one entity never overlap). */
  begin(connectorType: string, entity: string): void {
    const k = `${connectorType}/${entity}`;
    const c = this.inFlight.get(k) ?? { now: 0, max: 0 };
    c.now += 1;
    c.max = Math.max(c.max, c.now);
    this.inFlight.set(k, c);
  }

  end(connectorType: string, entity: string): void {
    const c = this.inFlight.get(`${connectorType}/${entity}`);
    if (c !== undefined) c.now -= 1;
  }

  /** The most execute calls of one (connector type, entity) that were ever in flight at once. */
  maxInFlight(connectorType: string, entity: string): number {
    return this.inFlight.get(`${connectorType}/${entity}`)?.max ?? 0;
  }

  /** Execute calls seen for a (connector type, entity), faulted or not: tests use it to prove resumes. */
  callsFor(connectorType: string, entity: string): number {
    return this.calls.get(`${connectorType}/${entity}`) ?? 0;
  }

  clear(): void {
    this.faults = [];
  }

  /** The next fault for this call, if any; counts it down. */
  take(connectorType: string, entity: string): FaultSpec | undefined {
    const key = `${connectorType}/${entity}`;
    this.calls.set(key, (this.calls.get(key) ?? 0) + 1);
    const hit = this.faults.find(
      (f) => (f.spec.connectorType ?? connectorType) === connectorType && (f.spec.entity ?? entity) === entity,
    );
    if (hit === undefined) return undefined;
    if (hit.skip > 0) {
      hit.skip -= 1;
      return undefined;
    }
    if (hit.left > 0 && --hit.left === 0) this.faults = this.faults.filter((f) => f !== hit);
    return hit.spec;
  }
}
