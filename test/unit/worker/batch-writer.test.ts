import { describe, expect, it } from 'vitest';
import { BatchWriter, type BatchSink, type PageBatch } from '../../../src/worker/batch-writer.js';
import type { RunCheckpoint } from '../../../src/store/schema.js';

const page = (n: number) => Array.from({ length: 100 }, (_, i) => ({ id: `r${n}_${i}`, data: {} }));
const cp = (n: number): RunCheckpoint => ({ partition: 0, page: { n } });
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A sink that "writes" for `ms`, then commits its checkpoint after the previous write, like writePage. */
function recordingSink(ms: (b: PageBatch) => number, fail?: (b: PageBatch) => boolean) {
  const committed: unknown[] = [];
  let active = 0;
  let peak = 0;
  const sink: BatchSink = async (batch, previous) => {
    active++;
    peak = Math.max(peak, active);
    try {
      await tick(ms(batch));
      if (fail?.(batch) === true) throw new Error(`write of ${JSON.stringify(batch.checkpoint.page)} failed`);
      await previous;
      committed.push(batch.checkpoint.page);
    } finally {
      active--;
    }
  };
  return { sink, committed, peak: () => peak };
}

describe('BatchWriter', () => {
  it('overlaps up to maxInFlight writes, yet commits checkpoints in page order', async () => {
    // The first write is slow, the next ones fast: they must still commit after it.
    const s = recordingSink((b) => ((b.checkpoint.page as { n: number }).n === 1 ? 60 : 5));
    const w = new BatchWriter(s.sink, 200, 2);
    for (let n = 1; n <= 8; n++) await w.add(page(n), cp(n));
    await w.drain();
    expect(s.peak()).toBe(2);
    const order = s.committed.map((p) => (p as { n: number }).n);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(order[order.length - 1]).toBe(8);
  });

  it('one write at a time when maxInFlight is 1', async () => {
    const s = recordingSink(() => 5);
    const w = new BatchWriter(s.sink, 200, 1);
    for (let n = 1; n <= 6; n++) await w.add(page(n), cp(n));
    await w.drain();
    expect(s.peak()).toBe(1);
    expect(s.committed.at(-1)).toEqual({ n: 6 });
  });

  it('a batch sharing a record id with the write in flight starts only after it ends (no cross-transaction row-lock wait)', async () => {
    const started: number[] = [];
    const ended: number[] = [];
    const sink: BatchSink = async (batch, previous) => {
      const n = (batch.checkpoint.page as { n: number }).n;
      started.push(n);
      await tick(n === 1 ? 40 : 5);
      await previous;
      ended.push(n);
    };
    const w = new BatchWriter(sink, 200, 2);
    await w.add(page(1), cp(1));
    // Page 2 repeats a record of page 1 (a task listed under two projects).
    await w.add([...page(2), { id: 'r1_7', data: {} }], cp(2));
    expect(started).toEqual([1]);
    await w.drain();
    expect(ended).toEqual([1, 2]);
    // Disjoint pages still overlap.
    const s = recordingSink((b) => ((b.checkpoint.page as { n: number }).n === 3 ? 40 : 5));
    const w2 = new BatchWriter(s.sink, 200, 2);
    await w2.add(page(3), cp(3));
    await w2.add(page(4), cp(4));
    await w2.drain();
    expect(s.peak()).toBe(2);
  });

  it('hands out lock turns in page order; a write that fails before locking does not hold up the next', async () => {
    const events: string[] = [];
    const sink: BatchSink = async (batch, previous, turn) => {
      const n = (batch.checkpoint.page as { n: number }).n;
      await turn.before;
      events.push(`lock ${n}`);
      if (n === 1) {
        await tick(30);
        throw new Error('write 1 failed before locking');
      }
      turn.taken();
      await previous.catch(() => undefined);
    };
    const w = new BatchWriter(sink, 200, 2);
    await w.add(page(1), cp(1));
    await w.add(page(2), cp(2));
    await expect(w.drain()).rejects.toThrow('write 1 failed before locking');
    expect(events).toEqual(['lock 1', 'lock 2']);
  });

  it('names the write each one follows while it is in flight, by a key unique to the writer', async () => {
    const turns: { n: number; key: string | null; after: string | null }[] = [];
    const sink: BatchSink = async (batch, previous, turn) => {
      const n = (batch.checkpoint.page as { n: number }).n;
      turns.push({ n, key: turn.key, after: turn.after });
      turn.taken();
      await tick(n === 1 ? 20 : 1);
      await previous;
    };
    const w = new BatchWriter(sink, 200, 2);
    await w.add(page(1), cp(1));
    await w.add(page(2), cp(2));
    await w.drain();
    // Nothing in flight before the third write: it follows no one.
    await w.add(page(3), cp(3));
    await w.drain();
    const other = new BatchWriter(sink, 200, 2);
    await other.add(page(4), cp(4));
    await other.drain();
    const [t1, t2, t3, t4] = turns;
    expect(t1?.after).toBeNull();
    expect(t2?.after).toBe(t1?.key);
    expect(t3?.after).toBeNull();
    expect(new Set(turns.map((t) => t.key)).size).toBe(4);
    expect(t4?.key?.split('/')[0]).not.toBe(t1?.key?.split('/')[0]);
  });

  it('a failed write fails the write overlapping it, and drain throws the first failure', async () => {
    const s = recordingSink((b) => ((b.checkpoint.page as { n: number }).n === 1 ? 40 : 5), (b) => (b.checkpoint.page as { n: number }).n === 1);
    const w = new BatchWriter(s.sink, 200, 2);
    await w.add(page(1), cp(1));
    await w.add(page(2), cp(2));
    await expect(w.drain()).rejects.toThrow('write of {"n":1} failed');
    expect(s.committed).toEqual([]);
  });
});
