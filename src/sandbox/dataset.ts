/**
 * One sandbox dataset: the records of one (connector type, entity, partition scope), listed
 * newest first. Records are generated on demand from their position, so a million-record
 * dataset costs nothing until it is read. Mutations (create/update/delete) are small overlays.
 */
import { recordIdOf } from '../connectors/planner/derive.js';
import { createdSecFor, EXTRA_BASE, generateRecord, ordinalOfId, type GenContext } from './generate.js';

/** The key of a record served as its pre-rendered JSON text alone (see {@link Dataset.prerender}). */
export const RENDERED: unique symbol = Symbol('rendered');

/** A virtual list: `extras` newest first, then `size` base records; deletions are skipped. */
export class Dataset {
  readonly ctx: GenContext;
  private size: number;
  private extras = 0;
  /** Creation second of each record a mutation created, oldest first (increasing). */
  private readonly extraSecs: number[] = [];
  private readonly revisions = new Map<number, number>();
  private readonly deleted = new Set<number>();
  /** Ordinal → JSON text at its current revision, when pre-rendered. */
  private rendered: Map<number, string> | null = null;

  constructor(ctx: GenContext, size: number) {
    this.ctx = ctx;
    this.size = size;
  }

  /** Raw length including deleted positions. */
  get rawLength(): number {
    return this.extras + this.size;
  }

  get liveCount(): number {
    return this.rawLength - this.deleted.size;
  }

  ordinalAt(pos: number): number {
    return pos < this.extras ? EXTRA_BASE + (this.extras - 1 - pos) : pos - this.extras;
  }

  private positionOf(ordinal: number): number {
    return ordinal >= EXTRA_BASE ? this.extras - 1 - (ordinal - EXTRA_BASE) : ordinal + this.extras;
  }

  isDeletedAt(pos: number): boolean {
    return this.deleted.has(this.ordinalAt(pos));
  }

  /** Creation second of the record at a position (newest first, so it falls with the position). */
  createdSecAt(pos: number): number {
    const ordinal = this.ordinalAt(pos);
    return ordinal >= EXTRA_BASE ? (this.extraSecs[ordinal - EXTRA_BASE] as number) : createdSecFor(ordinal, false);
  }

  recordAt(pos: number): Record<string, unknown> {
    const ordinal = this.ordinalAt(pos);
    const json = this.rendered?.get(ordinal);
    if (json !== undefined) return JSON.parse(json) as Record<string, unknown>;
    return generateRecord(this.ctx, { ordinal, createdSec: this.createdSecAt(pos), revision: this.revisions.get(ordinal) ?? 0 });
  }

  /**
   * The record at a position for a caller that only serializes it (the HTTP server): a pre-rendered
   * record is just its JSON text, not parsed back into an object that would be stringified again.
   */
  private servedAt(pos: number, textOnly: boolean): Record<string, unknown> {
    const json = textOnly ? this.rendered?.get(this.ordinalAt(pos)) : undefined;
    return json === undefined ? this.recordAt(pos) : { [RENDERED]: json };
  }

  /**
   * Renders every current record's JSON once, so serving them skips generation (benchmarks: the
   * third party's cost is not ours to measure, as the COPY baseline's rows are built beforehand).
   * An update or a new record is generated as usual.
   */
  prerender(): void {
    this.rendered = null;
    const rendered = new Map<number, string>();
    for (let pos = 0; pos < this.rawLength; pos++) rendered.set(this.ordinalAt(pos), JSON.stringify(this.recordAt(pos)));
    this.rendered = rendered;
  }

  /** Position just after the record with this id (deleted or not), or -1 when the id is not one of ours. */
  positionAfterId(id: unknown): number {
    const ordinal = ordinalOfId(this.ctx, id);
    if (ordinal === null) return -1;
    const pos = this.positionOf(ordinal);
    return pos < 0 || pos >= this.rawLength ? -1 : pos + 1;
  }

  /** Raw position of the n-th live record (skipping deleted ones). */
  rawPositionOfLive(n: number): number {
    if (this.deleted.size === 0) return Math.min(n, this.rawLength);
    let live = -1;
    for (let pos = 0; pos < this.rawLength; pos++) {
      if (!this.isDeletedAt(pos)) live++;
      if (live === n) return pos;
    }
    return this.rawLength;
  }

  /**
   * Collects up to `limit` live records from raw position `start`; `next` is where to continue.
   * `textOnly`: pre-rendered records come as their JSON text only (see {@link RENDERED}).
   */
  slice(start: number, limit: number, maxRawPos = this.rawLength, textOnly = false): { records: Record<string, unknown>[]; next: number } {
    const records: Record<string, unknown>[] = [];
    let pos = Math.max(0, start);
    for (; pos < maxRawPos && records.length < limit; pos++) {
      if (!this.isDeletedAt(pos)) records.push(this.servedAt(pos, textOnly));
    }
    return { records, next: pos };
  }

  /**
   * Oldest first from `sinceSec` (an incremental export): up to `limit` live records created at or
   * after it, and the creation second of the last one returned (null when none).
   */
  sliceSince(sinceSec: number, limit: number, textOnly = false): { records: Record<string, unknown>[]; lastSec: number | null } {
    const records: Record<string, unknown>[] = [];
    let lastSec: number | null = null;
    for (let pos = this.rawLengthSince(sinceSec) - 1; pos >= 0 && records.length < limit; pos--) {
      if (this.isDeletedAt(pos)) continue;
      records.push(this.servedAt(pos, textOnly));
      lastSec = this.createdSecAt(pos);
    }
    return { records, lastSec };
  }

  /** Live records at raw positions below `end`. */
  liveBefore(end: number): number {
    let deleted = 0;
    for (const ordinal of this.deleted) if (this.positionOf(ordinal) < end) deleted++;
    return Math.min(end, this.rawLength) - deleted;
  }

  /** Whether a live record exists at or after `pos` (below `maxRawPos`). */
  hasLiveFrom(pos: number, maxRawPos = this.rawLength): boolean {
    for (let p = pos; p < maxRawPos; p++) if (!this.isDeletedAt(p)) return true;
    return false;
  }

  /** Number of raw positions whose creation second is ≥ `sinceSec` (the list is newest first). */
  rawLengthSince(sinceSec: number): number {
    const baseKept = Math.max(0, Math.min(this.size, Math.floor((createdSecFor(0, false) - sinceSec) / 37) + 1));
    const extrasKept = this.extraSecs.filter((s) => s >= sinceSec).length;
    return extrasKept === this.extras ? this.extras + baseKept : extrasKept;
  }

  /**
   * Mutations between runs: new records (newest), new revisions of random live ones, deletions.
   * A new record is created no earlier than `nowSec`, as a vendor stamps it: a sync that began
   * before the mutation must find it after its own start.
   */
  mutate(m: { create?: number; update?: number; delete?: number }, pick: (n: number) => number, nowSec = 0): { created: unknown[]; updated: unknown[]; deleted: unknown[] } {
    const out = { created: [] as unknown[], updated: [] as unknown[], deleted: [] as unknown[] };
    for (let i = 0; i < (m.create ?? 0); i++) {
      // One second apart, as base records are apart: an export's next page starts a second after its last record.
      this.extraSecs.push(Math.max(createdSecFor(this.extras, true), nowSec, (this.extraSecs.at(-1) ?? 0) + 1));
      this.extras++;
      out.created.push(recordIdOf(this.ctx.entity, this.recordAt(0)));
    }
    const touch = (kind: 'updated' | 'deleted', count: number): void => {
      for (let i = 0, guard = 0; i < count && this.liveCount > 0 && guard < count * 50; guard++) {
        const pos = pick(this.rawLength);
        if (this.isDeletedAt(pos)) continue;
        const ordinal = this.ordinalAt(pos);
        const id = recordIdOf(this.ctx.entity, this.recordAt(pos));
        if (kind === 'updated') {
          this.revisions.set(ordinal, (this.revisions.get(ordinal) ?? 0) + 1);
          this.rendered?.delete(ordinal);
        }
        else this.deleted.add(ordinal);
        out[kind].push(id);
        i++;
      }
    };
    touch('updated', m.update ?? 0);
    touch('deleted', m.delete ?? 0);
    return out;
  }

  /** Every live record, in list order (for tests comparing the store with the sandbox). */
  all(): Record<string, unknown>[] {
    return this.slice(0, Number.MAX_SAFE_INTEGER).records;
  }

  resize(size: number): void {
    this.size = size;
  }
}
