/** Incremental bounds: each catalog param format, paramFormat differing from the field's, and cursor parsing. */
import { describe, expect, it } from 'vitest';
import { catalog } from '../../../src/connectors/catalog/index.js';
import type { EntityDef, IncrementalSpec } from '../../../src/connectors/catalog/types.js';
import { boundSeconds, firstPageParams, formatBound, readLowerBound, timeSlices } from '../../../src/connectors/planner.js';

const def = (kind: string, name: string): EntityDef => {
  const e = catalog[kind]?.entities[name];
  if (e === undefined) throw new Error(`${kind}.${name}`);
  return e;
};
const SEC = 1_767_225_600.9; // 2026-01-01T00:00:00.9Z

describe('formatBound', () => {
  it('formats unix, ISO datetime and date bounds (fractions floored, never negative)', () => {
    const inc = (format: IncrementalSpec['format']): IncrementalSpec => ({ param: 'p', field: 'f', format });
    expect(formatBound(inc('unix'), SEC)).toBe(1_767_225_600);
    expect(formatBound(inc('iso_datetime'), SEC)).toBe('2026-01-01T00:00:00.000Z');
    expect(formatBound(inc('date'), SEC + 3600)).toBe('2026-01-01');
    expect(formatBound(inc('unix'), -50)).toBe(0);
  });

  it('uses paramFormat when the param is encoded differently from the field', () => {
    const chats = def('live_chat_support', 'chats').read?.incremental;
    expect(chats).toMatchObject({ format: 'iso_datetime', paramFormat: 'unix' });
    expect(chats && formatBound(chats, SEC)).toBe(1_767_225_600);
    expect(chats && boundSeconds(chats, '2026-01-01T00:00:00Z')).toBe(1_767_225_600);
  });
});

describe('first pages of incremental runs, per kind', () => {
  const cases: [string, string, Record<string, string>, Record<string, unknown>][] = [
    ['payments', 'customers', {}, { 'created.gte': 1_767_225_600 }],
    ['work_management', 'tasks', { project: 'p' }, { modified_since: '2026-01-01T00:00:00.000Z' }],
    ['applicant_tracking', 'applications', {}, { last_activity_after: '2026-01-01T00:00:00.000Z' }],
    ['sales_call_intelligence', 'calls', {}, { fromDateTime: '2026-01-01T00:00:00.000Z' }],
    ['email_campaigns', 'lists', {}, { since_date_created: '2026-01-01T00:00:00.000Z' }],
    ['live_chat_support', 'agent_timeline', {}, { start_time: 1_767_225_600 }],
  ];
  it.each(cases)('%s.%s carries the bound in its own param and format', (kind, name, partition, expected) => {
    expect(firstPageParams(def(kind, name), partition, SEC)).toMatchObject({ ...partition, ...expected });
  });

  it('full runs carry no bound, except a time export, which starts at epoch 0', () => {
    expect(firstPageParams(def('payments', 'customers'), {})).not.toHaveProperty('created.gte');
    expect(firstPageParams(def('live_chat_support', 'chats'), {})).toEqual({ limit: 1000, start_time: 0 });
  });
});

describe('boundSeconds', () => {
  it('reads unix fields as seconds and ISO strings as dates; junk is null', () => {
    const unix: IncrementalSpec = { param: 'p', field: 'f', format: 'unix' };
    const iso: IncrementalSpec = { param: 'p', field: 'f', format: 'iso_datetime' };
    expect(boundSeconds(unix, 1700)).toBe(1700);
    expect(boundSeconds(iso, '1970-01-01T00:00:10Z')).toBe(10);
    expect(boundSeconds(iso, 'yesterday')).toBeNull();
    expect(boundSeconds(iso, undefined)).toBeNull();
  });
});

describe('the lower bound of a run\'s reads', () => {
  const base = { cursorSec: 10_000, lookbackSec: 300, startDateSec: null } as const;

  it('reads everything on a full run without start_date, and ignores the cursor on full runs', () => {
    expect(readLowerBound({ ...base, mode: 'full' })).toBeUndefined();
  });

  it('reads from the cursor minus the look-back on incremental runs; a first run has no cursor', () => {
    expect(readLowerBound({ ...base, mode: 'incremental' })).toBe(9_700);
    expect(readLowerBound({ ...base, mode: 'incremental', cursorSec: null })).toBeUndefined();
  });

  it('never reads before start_date, full or incremental', () => {
    expect(readLowerBound({ ...base, mode: 'full', startDateSec: 5_000 })).toBe(5_000);
    expect(readLowerBound({ ...base, mode: 'incremental', startDateSec: 5_000 })).toBe(9_700);
    expect(readLowerBound({ ...base, mode: 'incremental', startDateSec: 9_900 })).toBe(9_900);
    expect(readLowerBound({ ...base, mode: 'incremental', cursorSec: null, startDateSec: 5_000 })).toBe(5_000);
  });
});

describe('time slices of a full read', () => {
  const inc: IncrementalSpec = { param: 'created.gte', field: 'created', format: 'unix', upperParam: 'created.lt' };

  it('cover [from, to) exactly, newest first, contiguous and disjoint', () => {
    const slices = timeSlices(inc, 1000, 1100, 4);
    expect(slices).toEqual([
      { 'created.gte': 1075, 'created.lt': 1100 },
      { 'created.gte': 1050, 'created.lt': 1075 },
      { 'created.gte': 1025, 'created.lt': 1050 },
      { 'created.gte': 1000, 'created.lt': 1025 },
    ]);
  });

  it('never makes more slices than seconds, nor any without an upper bound param', () => {
    expect(timeSlices(inc, 1000, 1003, 8)).toHaveLength(3);
    expect(timeSlices(inc, 1000, 1001, 8)).toEqual([]);
    expect(timeSlices({ ...inc, upperParam: undefined } as IncrementalSpec, 1000, 2000, 8)).toEqual([]);
    expect(timeSlices(inc, 1000, 2000, 1)).toEqual([]);
  });

  it('a slice keeps its own lower bound when the run also has one (start_date)', () => {
    const customers = def('payments', 'customers');
    const [slice] = timeSlices(inc, 5000, 9000, 2);
    expect(firstPageParams(customers, slice!, 4000)).toMatchObject({ 'created.gte': 7000, 'created.lt': 9000 });
  });
});

