/**
 * Group commit for a run's pages. Fetching is sequential (each page's cursor comes from the one
 * before), so the worker overlaps it with writing: a page that arrives while no write is in
 * flight is written at once (a slow upstream stays searchable page by page); pages that arrive
 * during a write are buffered and go together in the next transaction, with the checkpoint of
 * the last of them. One write is in flight at a time, so checkpoints commit in page order.
 */
import type { PageRecord } from '../store/records-repo.js';
import type { RunCheckpoint } from '../store/schema.js';

/** One transaction's worth of pages: their records and the checkpoint after the last one. */
export interface PageBatch {
  readonly records: PageRecord[];
  readonly pages: number;
  readonly checkpoint: RunCheckpoint;
}

/** Writes a batch in one transaction (records + checkpoint). */
export type BatchSink = (batch: PageBatch) => Promise<void>;

export class BatchWriter {
  private records: PageRecord[] = [];
  private pages = 0;
  private checkpoint: RunCheckpoint | null = null;
  private inFlight: Promise<void> | null = null;
  private failure: { error: unknown } | null = null;

  /** `maxRecords` bounds a batch (memory, transaction size): the reader waits beyond it. */
  constructor(
    private readonly sink: BatchSink,
    private readonly maxRecords = 200,
  ) {}

  /** Buffers a page; starts a write if none is running, waits when the buffer is full. */
  async add(records: readonly PageRecord[], checkpoint: RunCheckpoint): Promise<void> {
    this.throwIfFailed();
    for (const r of records) this.records.push(r);
    this.pages += 1;
    this.checkpoint = checkpoint;
    if (this.inFlight === null) this.startWrite();
    else if (this.records.length >= this.maxRecords) await this.settle();
  }

  /** Writes everything buffered and waits for it; throws the first write failure. */
  async drain(): Promise<void> {
    while (this.inFlight !== null) await this.inFlight;
    this.throwIfFailed();
    if (this.pages > 0) {
      this.startWrite();
      while (this.inFlight !== null) await this.inFlight;
    }
    this.throwIfFailed();
  }

  /** Waits until the write in flight (and any it chained) has room for more. */
  private async settle(): Promise<void> {
    while (this.inFlight !== null && this.records.length >= this.maxRecords) await this.inFlight;
    this.throwIfFailed();
  }

  private startWrite(): void {
    const batch: PageBatch = { records: this.records, pages: this.pages, checkpoint: this.checkpoint as RunCheckpoint };
    this.records = [];
    this.pages = 0;
    this.checkpoint = null;
    this.inFlight = this.sink(batch).then(
      () => {
        this.inFlight = null;
        // Pages that arrived during the write go next, together.
        if (this.pages > 0 && this.failure === null) this.startWrite();
      },
      (error: unknown) => {
        this.inFlight = null;
        this.failure ??= { error };
      },
    );
  }

  private throwIfFailed(): void {
    if (this.failure !== null) throw this.failure.error;
  }
}
