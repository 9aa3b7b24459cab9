/**
 * Detects paging that goes round in circles, which the "did not advance" check of the planner
 * cannot see when the next page's params are computed locally (`page` + 1, `offset` + n) or when
 * tokens cycle (A → B → A): an upstream that ignores `page` returns the same page for ever.
 * Brent's cycle detection over page fingerprints keeps O(1) memory and finds any cycle within
 * about twice its length plus the pages before it.
 */

/** One chain's cycle detector; `repeats` is fed each page's fingerprint in order. */
export class PageCycleGuard {
  private saved: string | null = null;
  private power = 1;
  private steps = 0;

  /** True when this page is one the chain returned before, in a loop. */
  repeats(fingerprint: string): boolean {
    if (fingerprint === this.saved) return true;
    this.steps += 1;
    if (this.steps === this.power) {
      this.saved = fingerprint;
      this.power *= 2;
      this.steps = 0;
    }
    return false;
  }
}

/** A page's fingerprint: its length and first and last ids (null for an empty page, never a repeat). */
export function pageFingerprint(records: readonly { readonly id: string }[]): string | null {
  const first = records[0];
  const last = records[records.length - 1];
  return first === undefined || last === undefined ? null : `${records.length}\u0000${first.id}\u0000${last.id}`;
}
