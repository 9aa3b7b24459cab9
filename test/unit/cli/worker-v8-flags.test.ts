/**
 * The worker's own V8 flags (node-flags.ts WORKER_V8_FLAGS) spare it the full collections V8
 * starts from a task when the old generation's headroom is below the 32 MB young generation.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NODE_FLAGS } from '../../../src/cli/node-flags.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/gc-churn.ts', import.meta.url));

/** Full collections of the fixture's churn, run as a syncdex process (NODE_FLAGS), with or without the worker's flags. */
function majorCollections(apply: boolean): number {
  const out = execFileSync(process.execPath, [...NODE_FLAGS, '--import', 'tsx', FIXTURE, ...(apply ? ['apply'] : [])], { encoding: 'utf8', timeout: 60_000 });
  return (JSON.parse(out.trim()) as { major: number }).major;
}

describe('worker V8 flags', () => {
  it('cut the full collections of a worker-like churn by more than half', () => {
    const plain = majorCollections(false);
    const worker = majorCollections(true);
    expect(plain).toBeGreaterThanOrEqual(3);
    expect(worker * 2).toBeLessThan(plain);
  }, 120_000);
});
