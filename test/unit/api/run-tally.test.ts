import { describe, expect, it } from 'vitest';
import { RunTally, type RunCounts } from '../../../src/api/run-tally.js';

const run = (id: string, seen: number, inserted = 0): RunCounts => ({ id, seen, inserted, updated: 0, unchanged: 0, deleted: 0 });

describe('RunTally', () => {
  it('adds each run’s growth once, and nothing when a run stops being shown (pruned or settled)', () => {
    const t = new RunTally();
    expect(t.advance([run('1', 100, 100), run('2', 40)])).toMatchObject({ seen: 140, inserted: 100 });
    // Run 1 grows; run 2 finished and is shown again unchanged; run 3 is new.
    expect(t.advance([run('1', 150, 120), run('2', 40), run('3', 5)])).toMatchObject({ seen: 55, inserted: 20 });
    // Runs 1 and 2 were pruned (or left the window): the counter must not go back.
    expect(t.advance([run('3', 5)])).toMatchObject({ seen: 0, inserted: 0 });
    expect(t.advance([])).toEqual({ seen: 0, inserted: 0, updated: 0, unchanged: 0, deleted: 0 });
  });

  it('never adds a negative growth (a counter read lower than before)', () => {
    const t = new RunTally();
    t.advance([run('1', 10)]);
    expect(t.advance([run('1', 7)]).seen).toBe(0);
  });
});
