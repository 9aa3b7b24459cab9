/** Generated data: deterministic per seed, typed by the catalog, realistic where cheap, unique ids across partitions. */
import { describe, expect, it } from 'vitest';
import { catalog } from '../../../src/connectors/catalog/index.js';
import { recordIdOf, withDerivedFields } from '../../../src/connectors/planner.js';
import { Sandbox } from '../../../src/sandbox/sandbox.js';
import { call } from './helpers.js';

const typeOk = (type: string, v: unknown): boolean =>
  v === null ||
  (type === 'int' ? Number.isInteger(v) : type === 'number' ? typeof v === 'number' : type === 'array' ? Array.isArray(v) : type === 'object' ? typeof v === 'object' && !Array.isArray(v) : typeof v === type);

describe('determinism', () => {
  it('the same seed gives the same records; another seed different ones', () => {
    const a = new Sandbox({ seed: 7, defaultSize: 20 }).records('crm', 'contacts').data;
    const b = new Sandbox({ seed: 7, defaultSize: 20 }).records('crm', 'contacts').data;
    const c = new Sandbox({ seed: 8, defaultSize: 20 }).records('crm', 'contacts').data;
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    expect(c.map((r) => r.id)).toEqual(a.map((r) => r.id));
  });

  it('nested datasets are deterministic too, and reading order does not matter', () => {
    const one = new Sandbox({ seed: 3, defaultSize: 4 });
    const two = new Sandbox({ seed: 3, defaultSize: 4 });
    two.records('table_platform', 'tables');
    expect(two.records('table_platform', 'records').data).toEqual(one.records('table_platform', 'records').data);
  });

  it('configure with a seed resets generated data', () => {
    const sb = new Sandbox({ seed: 1, defaultSize: 5 });
    const before = sb.records('payments', 'customers').data;
    sb.configure({ seed: 2 });
    expect(sb.records('payments', 'customers').data).not.toEqual(before);
  });
});

describe('record shapes', () => {
  it('every replicable entity of every kind: ids unique across partitions, values fit the catalog types', () => {
    const sb = new Sandbox({ defaultSize: 3, nestedSize: 2 });
    for (const kind of Object.values(catalog)) {
      for (const entity of Object.values(kind.entities)) {
        if (entity.read === undefined) continue;
        const { data } = sb.records(kind.key, entity.name, { config: { account_ids: 'a1,a2' } });
        const ids = data.map((r) => recordIdOf(entity, r));
        expect(new Set(ids).size, `${kind.key}.${entity.name}`).toBe(ids.length);
        // As stored: a composed id (EntityDef.composedId) is a field of the record from then on.
        for (const r of data.map((raw) => withDerivedFields(entity, raw))) {
          for (const [name, spec] of Object.entries(entity.fields)) {
            expect(typeOk(spec.type, r[name]), `${kind.key}.${entity.name}.${name}=${JSON.stringify(r[name])}`).toBe(true);
          }
        }
      }
    }
  });

  it('a person’s name and email agree; emails are ASCII', () => {
    const sb = new Sandbox({ defaultSize: 30 });
    for (const a of sb.records('live_chat_support', 'agents').data) {
      if (a.first_name === null || a.last_name === null || a.email === null || a.display_name === null) continue;
      expect(a.display_name).toBe(`${String(a.first_name)} ${String(a.last_name)}`);
      expect(a.email).toMatch(/^[a-z]+\.[a-z]+\d+@example\.com$/);
    }
    const ascii = (s: unknown): string => String(s).replace(/ø/g, 'o').normalize('NFD').replace(/[^A-Za-z]/g, '').toLowerCase();
    for (const u of sb.records('sales_call_intelligence', 'users').data) {
      expect(String(u.emailAddress).startsWith(`${ascii(u.firstName)}.${ascii(u.lastName)}`)).toBe(true);
    }
  });

  it('timestamps follow the entity’s format: unix ints for payments, ISO strings elsewhere, dates as dates', () => {
    const sb = new Sandbox({ defaultSize: 5 });
    for (const c of sb.records('payments', 'customers').data) expect(Number.isInteger(c.created)).toBe(true);
    for (const c of sb.records('team_chat', 'channels').data) expect(c.created === null || Number.isInteger(c.created)).toBe(true);
    for (const t of sb.records('task_tracker', 'issues').data) expect(t.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    for (const p of sb.records('work_management', 'projects').data) expect(p.due_on === null || /^\d{4}-\d\d-\d\d$/.test(String(p.due_on))).toBe(true);
    for (const p of sb.records('work_management', 'projects').data) expect(String(p.modified_at) >= String(p.created_at)).toBe(true);
  });

  it('nested objects, arrays and nulls occur', () => {
    const data = new Sandbox({ defaultSize: 40 }).records('payments', 'customers').data;
    expect(data.some((r) => typeof r.address === 'object' && r.address !== null)).toBe(true);
    expect(data.some((r) => Array.isArray(r.preferred_locales) && r.preferred_locales.length > 0)).toBe(true);
    expect(data.some((r) => r.email === null)).toBe(true);
  });

  it('records of a partition carry its parent: tables per base, issues per project key, campaign rows per campaign', () => {
    const sb = new Sandbox({ defaultSize: 3 });
    const keys = sb.records('issue_tracker', 'projects').data.map((p) => p.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of keys) expect(k).toMatch(/^[A-Z][A-Z0-9]+$/);
    for (const p of sb.partitions('issue_tracker', 'issues')) {
      expect(p.params.jql).toBe(`project = "${p.scope}" ORDER BY created ASC`);
      for (const r of sb.records('issue_tracker', 'issues', { scope: p.scope }).data) {
        expect(r.key).toMatch(new RegExp(`^${p.scope}-\\d+$`));
        expect((r.fields as { project: { key: string } }).project.key).toBe(p.scope);
      }
    }
    for (const p of sb.partitions('email_campaigns', 'email_activity')) {
      for (const r of sb.records('email_campaigns', 'email_activity', { scope: p.scope }).data) expect(r.campaign_id).toBe(p.params.campaign_id);
    }
    const base = String(call(sb, 'table_platform', 'bases').data[0]?.id);
    const own = call(sb, 'table_platform', 'tables', { base_id: base }).data.map((t) => t.id);
    const part = sb.partitions('table_platform', 'tables').find((p) => p.params.base_id === base);
    expect(sb.records('table_platform', 'tables', { scope: part?.scope ?? '' }).data.map((t) => t.id)).toEqual(own);
  });
});
