import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runProgressView } from '../../../src/cli/run-progress-bar.js';
import type { SyncRunRow } from '../../../src/store/schema.js';

function stream(tty: boolean): { out: NodeJS.WritableStream & { isTTY?: boolean; columns?: number }; text: () => string } {
  let text = '';
  const out = Object.assign(new Writable({ write: (c, _e, cb) => ((text += String(c)), cb()) }), { isTTY: tty, columns: 160 });
  return { out, text: () => text };
}

const run = (seen: number, pages: number, status = 'running'): SyncRunRow => ({ id: '7', entity: 'customers', status, seen: String(seen), pages, mode: 'full' }) as unknown as SyncRunRow;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('sync --wait progress', () => {
  it('draws a bar with records, pages, rate and ETA on a terminal when the total is known', async () => {
    const { out, text } = stream(true);
    const view = runProgressView(out);
    const total = { records: 1000, source: 'as last synced' };
    for (let i = 1; i <= 5; i++) {
      view.update(run(i * 100, i), total);
      await sleep(220);
    }
    view.finish(run(1000, 10, 'succeeded'), total);
    const shown = text();
    expect(shown).toMatch(/█+░+ 50% \| 500\/1000 records \(as last synced\) \| 5 pages \| \d+ rec\/s \| ETA \d+s/);
    expect(shown).toContain('100% | 1000/1000 records');
    expect(shown).toContain('\x1b['); // redrawn in place, not line after line
  });

  it('keeps to a live line without bar or ETA when no total is known, and never passes 100 %', async () => {
    const { out, text } = stream(true);
    const none = runProgressView(out);
    none.update(run(40, 2), null);
    none.finish(run(80, 4, 'succeeded'), null);
    expect(text()).toMatch(/run 7 customers succeeded: 80 records \| 4 pages/);
    expect(text()).not.toContain('ETA');
    const grown = stream(true);
    const view = runProgressView(grown.out);
    view.finish(run(150, 3, 'succeeded'), { records: 100, source: 'as last synced' });
    expect(grown.text()).toContain('100% | 150/150 records');
  });

  it('turns the live line into a bar once the runtime reports the total', async () => {
    const { out, text } = stream(true);
    const view = runProgressView(out);
    view.update(run(0, 0, 'queued'), null);
    view.update(run(50, 1), { records: 200, source: 'reported by the runtime' });
    view.finish(run(200, 4, 'succeeded'), { records: 200, source: 'reported by the runtime' });
    expect(text()).toMatch(/25% \| 50\/200 records \(reported by the runtime\)/);
    expect(text()).toContain('100% | 200/200 records');
  });

  it('prints plain lines without control characters when not a terminal', async () => {
    const { out, text } = stream(false);
    const view = runProgressView(out);
    const total = { records: 1000, source: 'as last synced' };
    view.update(run(100, 1), total);
    view.update(run(200, 2), total); // within the same second: not printed again
    view.finish(run(1000, 10, 'succeeded'), total);
    expect(text().split('\n').filter(Boolean)).toEqual([expect.stringMatching(/^run 7 customers running: 100 of ~1000 records, 1 pages, \d+ rec\/s$/), expect.stringMatching(/^run 7 customers succeeded: 1000 of ~1000 records, 10 pages/)]);
  });
});
