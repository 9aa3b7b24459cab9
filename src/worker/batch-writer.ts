/**
 * Group commit for a run's pages. Fetching is sequential (each page's cursor comes from the one
 * before), so the worker overlaps it with writing: a page that arrives while a write slot is free
 * is written at once (a slow upstream stays searchable page by page); pages that arrive while
 * every slot is busy are buffered and go together in the next transaction, with the checkpoint
 * of the last of them.
 *
 * Up to `maxInFlight` transactions run at once. Each one is handed the promise of the write
 * before it and must wait for it before saving its checkpoint (and fail if it failed), so
 * checkpoints still commit in page order: a committed checkpoint never covers a page whose
 * records were not committed.
 *
 * A batch that shares a record id with the write before it waits for that write to end before
 * it starts: otherwise it could lock the shared row first and then wait (outside Postgres's
 * view) for a write that is blocked on that row, a deadlock nothing would ever break. Partitions
 * read in parallel can hold the same record (a task in two projects); offset paging can repeat one.
 *
 * The wait for the write before happens in Postgres (`LockTurn.key`): a write holds its rows
 * while it waits, and a superseded execution of the same run (a redelivered job whose first
 * execution still runs) may hold rows the other's earlier write needs, and wait likewise. A wait
 * only JavaScript knew of would make that a cycle no one breaks; Postgres's deadlock detector
 * breaks it within a second, failing one of the writes.
 *
 * For the same reason writes take the entity lock in page order (`LockTurn`): a later write that
 * held its shared lock while an operator's exclusive request queued behind it would make the
 * earlier write's shared request wait behind that one, while the later write waits (in
 * JavaScript) for the earlier: a cycle Postgres's deadlock detector never sees.
 */
import { randomUUID } from 'node:crypto';
import type { PageRecord } from '../store/records-repo.js';
import type { RunCheckpoint } from '../store/schema.js';

/** One transaction's worth of pages: their records and the checkpoint after the last one. */
export interface PageBatch {
  readonly records: PageRecord[];
  readonly pages: number;
  readonly checkpoint: RunCheckpoint;
}

/** A write's turn at the entity lock: wait for `before` (the previous write has its lock), call `taken` once holding it. */
export interface LockTurn {
  readonly before: Promise<void>;
  readonly taken: () => void;
  /** This write's key, held in Postgres until it ends, so a later write can wait for it there. */
  readonly key: string | null;
  /** The key of the write before it, when that one was still in flight; else null. */
  readonly after: string | null;
}

/** Writes a batch in one transaction (records + checkpoint); awaits `previous` before the checkpoint. */
export type BatchSink = (batch: PageBatch, previous: Promise<void>, turn: LockTurn) => Promise<void>;

export class BatchWriter {
  private records: PageRecord[] = [];
  private pages = 0;
  private checkpoint: RunCheckpoint | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private tail: Promise<void> = Promise.resolve();
  private tailIds: ReadonlySet<string> = new Set();
  private tailLocked: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | null = null;
  /** Write keys are unique across writers: two executions of one run each have their own. */
  private readonly writerId = randomUUID();
  private writes = 0;
  private tailKey: string | null = null;

  /** `maxRecords` bounds a batch (memory, transaction size): the reader waits beyond it. */
  constructor(
    private readonly sink: BatchSink,
    private readonly maxRecords = 200,
    private readonly maxInFlight = 1,
  ) {}

  /** Buffers a page; starts a write if a slot is free, waits when the buffer is full. */
  async add(records: readonly PageRecord[], checkpoint: RunCheckpoint): Promise<void> {
    this.throwIfFailed();
    for (const r of records) this.records.push(r);
    this.pages += 1;
    this.checkpoint = checkpoint;
    if (this.inFlight.size < this.maxInFlight) this.startWrite();
    else if (this.records.length >= this.maxRecords) await this.settle();
  }

  /** Writes everything buffered and waits for it; throws the first write failure. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    this.throwIfFailed();
    if (this.pages > 0) {
      this.startWrite();
      while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    }
    this.throwIfFailed();
  }

  /** Waits until the buffer has room again (writes that end start the next one). */
  private async settle(): Promise<void> {
    while (this.inFlight.size >= this.maxInFlight && this.records.length >= this.maxRecords) await Promise.race(this.inFlight);
    this.throwIfFailed();
  }

  private startWrite(): void {
    const batch: PageBatch = { records: this.records, pages: this.pages, checkpoint: this.checkpoint as RunCheckpoint };
    this.records = [];
    this.pages = 0;
    this.checkpoint = null;
    const previous = this.tail;
    const shares = this.inFlight.size > 0 && batch.records.some((r) => this.tailIds.has(r.id));
    let taken!: () => void;
    const locked = new Promise<void>((resolve) => (taken = resolve));
    const key = `${this.writerId}/${++this.writes}`;
    const turn: LockTurn = { before: this.tailLocked, taken, key, after: this.inFlight.size > 0 ? this.tailKey : null };
    this.tailLocked = locked;
    this.tailKey = key;
    // A failed predecessor fails this write too (as `previous` would inside the sink).
    const write = shares ? previous.then(() => this.sink(batch, previous, turn)) : this.sink(batch, previous, turn);
    // A write that failed before locking must not hold up the turns after it.
    write.then(taken, taken);
    this.tail = write;
    this.tailIds = new Set(batch.records.map((r) => r.id));
    const slot: Promise<void> = write.then(
      () => {
        this.inFlight.delete(slot);
        // Pages that arrived while every slot was busy go next, together.
        if (this.pages > 0 && this.failure === null && this.inFlight.size < this.maxInFlight) this.startWrite();
      },
      (error: unknown) => {
        this.inFlight.delete(slot);
        this.failure ??= { error };
      },
    );
    this.inFlight.add(slot);
  }

  private throwIfFailed(): void {
    if (this.failure !== null) throw this.failure.error;
  }
}
