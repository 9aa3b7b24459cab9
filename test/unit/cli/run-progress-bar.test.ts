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
    const view = runProgressView(out, { records: 1000, source: 'as last synced' });
    for (let i = 1; i <= 5; i++) {
      view.update(run(i * 100, i));
      await sleep(220);
    }
    view.finish(run(1000, 10, 'succeeded'));
    const shown = text();
    expect(shown).toMatch(/█+░+ 50% \| 500\/1000 records \(as last synced\) \| 5 pages \| \d+ rec\/s \| ETA \d+s/);
    expect(shown).toContain('100% | 1000/1000 records');
    expect(shown).toContain('\x1b['); // redrawn in place, not line after line
  });

  it('keeps to a live line without bar or ETA when no total is known, and never passes 100 %', async () => {
    const { out, text } = stream(true);
    const none = runProgressView(out, null);
    none.update(run(40, 2));
    none.finish(run(80, 4, 'succeeded'));
    expect(text()).toMatch(/run 7 customers succeeded: 80 records \| 4 pages/);
    expect(text()).not.toContain('ETA');
    const grown = stream(true);
    const view = runProgressView(grown.out, { records: 100, source: 'as last synced' });
    view.finish(run(150, 3, 'succeeded'));
    expect(grown.text()).toContain('100% | 150/150 records');
  });

  it('prints plain lines without control characters when not a terminal', async () => {
    const { out, text } = stream(false);
    const view = runProgressView(out, { records: 1000, source: 'as last synced' });
    view.update(run(100, 1));
    view.update(run(200, 2)); // within the same second: not printed again
    view.finish(run(1000, 10, 'succeeded'));
    expect(text().split('\n').filter(Boolean)).toEqual([expect.stringMatching(/^run 7 customers running: 100 of ~1000 records, 1 pages, \d+ rec\/s$/), expect.stringMatching(/^run 7 customers succeeded: 1000 of ~1000 records, 10 pages/)]);
  });
});
