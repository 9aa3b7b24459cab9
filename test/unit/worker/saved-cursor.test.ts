import { describe, expect, it } from 'vitest';
import { readFromOf, savedCursor } from '../../../src/worker/saved-cursor.js';

describe('the incremental cursor a run saves', () => {
  const started = new Date('2026-11-22T10:00:00Z');
  const startSec = started.getTime() / 1000;

  it('is the newest value read when that is before reading began', () => {
    expect(savedCursor(startSec - 3600, startSec)).toBe(startSec - 3600);
  });

  it('is capped where reading began: a record changed after its page was read is newer than that', () => {
    expect(savedCursor(startSec + 1800, startSec)).toBe(startSec);
  });

  it('is where reading began when no value was read (nothing changed, or records without the field)', () => {
    expect(savedCursor(null, startSec)).toBe(startSec);
  });

  it('is nothing when neither is known', () => {
    expect(savedCursor(null, null)).toBeNull();
  });
});

describe('where a run began reading', () => {
  const started = new Date('2026-11-22T10:00:00Z');

  it('is its own start when it has no checkpoint', () => {
    expect(readFromOf({ checkpoint: null, started_at: started })).toBe(started.getTime() / 1000);
  });

  it("is the original's start for a replay that resumed the original's checkpoint, days later", () => {
    const original = started.getTime() / 1000 - 3 * 86_400;
    expect(readFromOf({ checkpoint: { partition: 0, page: { starting_after: 'cus_1' }, readFrom: original }, started_at: started })).toBe(original);
  });

  it('is unknown before the run started', () => {
    expect(readFromOf({ checkpoint: null, started_at: null })).toBeNull();
  });
});
