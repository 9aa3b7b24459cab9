import { describe, expect, it } from 'vitest';
import { decodeRunsCursor, encodeRunsCursor } from '../../../src/api/params.js';
import { parseRunsQuery } from '../../../src/api/runs-query.js';
import { AppError } from '../../../src/errors.js';

function pathOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e.path;
    throw e;
  }
  return undefined;
}

describe('runs-list query', () => {
  it('parses filters, limits and the cursor', () => {
    const q = parseRunsQuery({ connector_id: '3f1c2b9e-8a7d-4c6b-9e5f-0a1b2c3d4e5f', entity: 'customers', status: 'failed,cancelled', since: '2024-05-01T00:00:00Z', limit: '20', cursor: encodeRunsCursor('42') });
    expect(q.filter.statuses).toEqual(['failed', 'cancelled']);
    expect(q.filter.since?.toISOString()).toBe('2024-05-01T00:00:00.000Z');
    expect(q.limit).toBe(20);
    expect(q.beforeId).toBe('42');
    expect(parseRunsQuery({}).limit).toBe(50);
    // Without an offset a datetime is UTC, as the replication start date is.
    expect(parseRunsQuery({ until: '2024-05-01T08:00' }).filter.until?.toISOString()).toBe('2024-05-01T08:00:00.000Z');
    expect(parseRunsQuery({ until: '2024-05-01T08:00:00+0200' }).filter.until?.toISOString()).toBe('2024-05-01T06:00:00.000Z');
  });

  it('names the offending parameter', () => {
    expect(pathOf(() => parseRunsQuery({ status: 'done' }))).toBe('status');
    expect(pathOf(() => parseRunsQuery({ limit: '501' }))).toBe('limit');
    expect(pathOf(() => parseRunsQuery({ limit: '1e2' }))).toBe('limit');
    expect(pathOf(() => parseRunsQuery({ since: 'last week' }))).toBe('since');
    // new Date() reads these as March 1st and as a local time; neither is what was asked.
    expect(pathOf(() => parseRunsQuery({ since: '2024-02-30' }))).toBe('since');
    expect(pathOf(() => parseRunsQuery({ until: '2024-05-01T24:30:00Z' }))).toBe('until');
    expect(pathOf(() => parseRunsQuery({ since: '2024-05-01junk' }))).toBe('since');
    expect(pathOf(() => parseRunsQuery({ since: '2024-05-02T00:00:00Z', until: '2024-05-01T00:00:00Z' }))).toBe('since');
    expect(pathOf(() => parseRunsQuery({ entity: 'Customers; drop' }))).toBe('entity');
    expect(pathOf(() => parseRunsQuery({ entity: ['a', 'b'] }))).toBe('entity');
    expect(pathOf(() => parseRunsQuery({ connector_id: 'x' }))).toBe('connector_id');
    expect(pathOf(() => parseRunsQuery({ order: 'asc' }))).toBe('order');
    expect(pathOf(() => decodeRunsCursor(Buffer.from('runs:1; drop').toString('base64url')))).toBe('cursor');
  });
});
