import { describe, expect, it } from 'vitest';
import { isStale, isTenantStale, TENANT_MIN_ROWS } from '../../../src/store/table-stats.js';

describe('when records is analyzed', () => {
  it('the table: past 50 rows and a tenth of it', () => {
    expect(isStale({ changed: 150, rows: 1000 })).toBe(false);
    expect(isStale({ changed: 151, rows: 1000 })).toBe(true);
  });

  it('a tenant: past the minimum and more rows written than the planner believes it holds', () => {
    expect(isTenantStale(TENANT_MIN_ROWS - 1, 1)).toBe(false);
    expect(isTenantStale(TENANT_MIN_ROWS, 1)).toBe(true);
    expect(isTenantStale(1000, 1000)).toBe(false);
    expect(isTenantStale(1001, 1000)).toBe(true);
  });
});
