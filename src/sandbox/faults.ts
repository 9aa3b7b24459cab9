/** Faults the sandbox injects on request, consumed one per matching execute call. */
export interface FaultSpec {
  readonly kind: 'status' | 'slow' | 'truncated';
  /** HTTP status for `status` faults (429, 500, 401, ...). */
  readonly status?: number;
  /** Retry-After seconds sent with a 429. */
  readonly retryAfterSec?: number;
  /** Delay before answering, for `slow`. */
  readonly delayMs?: number;
  /** How many calls it hits (default 1); -1 = every call until cleared. */
  readonly count?: number;
  readonly connectorType?: string;
  readonly entity?: string;
  readonly message?: string;
}

/** A FIFO of armed faults. */
export class FaultPlan {
  private faults: { spec: FaultSpec; left: number }[] = [];

  arm(spec: FaultSpec): void {
    this.faults.push({ spec, left: spec.count ?? 1 });
  }

  clear(): void {
    this.faults = [];
  }

  /** The next fault for this call, if any; counts it down. */
  take(connectorType: string, entity: string): FaultSpec | undefined {
    const hit = this.faults.find(
      (f) => (f.spec.connectorType ?? connectorType) === connectorType && (f.spec.entity ?? entity) === entity,
    );
    if (hit === undefined) return undefined;
    if (hit.left > 0 && --hit.left === 0) this.faults = this.faults.filter((f) => f !== hit);
    return hit.spec;
  }
}
