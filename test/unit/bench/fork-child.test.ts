/**
 * The bench's floors stand in for the worker, so they run with the worker's V8 flags: without
 * `--no-incremental-marking-task` the forward floor read 51-57 µs per record against 35-46 with
 * it, which overstated the limits beside the worker's figure (bench/README.md, session 44).
 */
import { describe, expect, it } from 'vitest';
import { standInFlags } from '../../../bench/lib/fork-child.js';
import { NODE_FLAGS, WORKER_V8_FLAGS } from '../../../src/cli/node-flags.js';

describe('bench child flags', () => {
  it('runs a worker stand-in with every flag the worker runs with', () => {
    expect(WORKER_V8_FLAGS.length).toBeGreaterThan(0);
    expect(standInFlags('worker')).toEqual([...NODE_FLAGS, ...WORKER_V8_FLAGS]);
  });

  it('runs an API stand-in with the flags of every syncdex process and none of the worker', () => {
    expect(standInFlags('syncdex')).toEqual(NODE_FLAGS);
    for (const f of WORKER_V8_FLAGS) expect(standInFlags('syncdex')).not.toContain(f);
  });

  it('runs a plain helper with no syncdex flags', () => {
    expect(standInFlags('none')).toEqual([]);
  });
});
