import { describe, expect, it } from 'vitest';
import { savedCursor } from '../../../src/worker/sync-runner.js';

describe('the incremental cursor a run saves', () => {
  const started = new Date('2026-11-22T10:00:00Z');
  const startSec = started.getTime() / 1000;

  it('is the newest value read when that is before the run started', () => {
    expect(savedCursor(startSec - 3600, started)).toBe(startSec - 3600);
  });

  it('is capped at the run start: a record changed after its page was read is newer than that', () => {
    expect(savedCursor(startSec + 1800, started)).toBe(startSec);
  });

  it('is nothing when nothing was read', () => {
    expect(savedCursor(null, started)).toBeNull();
  });
});
