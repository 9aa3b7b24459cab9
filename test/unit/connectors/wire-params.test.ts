import { describe, expect, it } from 'vitest';
import { catalog } from '../../../src/connectors/catalog/index.js';
import { firstPageParams, fromWireParams, paramSpecAt, runtimeParams, toWireParams } from '../../../src/connectors/planner.js';

const payments = catalog.payments!;
const customers = payments.entities.customers!;
const tasks = catalog.work_management!.entities.workspace_task_search!;

describe('params on the wire', () => {
  it('nests the keys of an object param, as the reference declares `created` ("`created` object: `created.gte` … int")', () => {
    const flat = firstPageParams(customers, { 'created.gte': 1000, 'created.lt': 2000 }, 1500);
    expect(flat).toEqual({ limit: 100, 'created.gte': 1000, 'created.lt': 2000 });
    expect(runtimeParams(payments, customers, flat)).toEqual({ limit: 100, created: { gte: 1000, lt: 2000 } });
    expect(runtimeParams(payments, customers, { limit: 100, 'created.gte': 1500 })).toEqual({ limit: 100, created: { gte: 1500 } });
  });

  it('keeps flat the params the reference names with a dot but never calls an object (work management filters)', () => {
    const params = { workspace_gid: 'w1', 'created_at.after': '2026-01-01T00:00:00Z', 'modified_at.before': '2026-02-01T00:00:00Z' };
    expect(toWireParams(tasks.params ?? {}, params)).toEqual(params);
  });

  it('resolves a flat name to the key of its object param, and reads nested params back flat', () => {
    const specs = customers.params ?? {};
    expect(paramSpecAt(specs, 'created.gte')).toEqual({ type: 'int' });
    expect(paramSpecAt(specs, 'created.after')).toBeUndefined();
    expect(paramSpecAt(specs, 'limit')).toMatchObject({ type: 'int', max: 100 });
    expect(fromWireParams(specs, { limit: 3, created: { gte: 1, lt: 2 } })).toEqual({ limit: 3, 'created.gte': 1, 'created.lt': 2 });
    const flat = { limit: 100, starting_after: 'cus_1', 'created.gte': 1, 'created.lt': 2 };
    expect(fromWireParams(specs, runtimeParams(payments, customers, flat))).toEqual(flat);
  });
});
