/**
 * Searchable fields that live deeper in the record (issue tracker `fields.created`, email marketing
 * `attributes.updated`): the catalog says where, and a stored record carries them at the top.
 */
import { describe, expect, it } from 'vitest';
import { catalog, getConnectorDef, getEntityDef } from '../../../src/connectors/catalog/index.js';
import type { FieldSpec } from '../../../src/connectors/catalog/types.js';
import { withDerivedFields } from '../../../src/connectors/planner.js';
import { Sandbox } from '../../../src/sandbox/sandbox.js';

function specAt(fields: Readonly<Record<string, FieldSpec>>, path: string): FieldSpec | undefined {
  const [head, ...rest] = path.split('.');
  const spec = fields[head!];
  if (rest.length === 0 || spec === undefined) return spec;
  return spec.shape === undefined ? undefined : specAt(spec.shape, rest.join('.'));
}

describe('derived searchable fields', () => {
  const all = Object.values(catalog).flatMap((c) => Object.values(c.entities).map((e) => ({ key: `${c.key}.${e.name}`, e })));

  it('name searchable fields the record does not carry at the top, and record paths of the same type', () => {
    const derived = all.filter(({ e }) => e.derived !== undefined && Object.keys(e.derived).length > 0);
    expect(derived.map((d) => d.key)).toEqual(expect.arrayContaining(['issue_tracker.issues', 'email_marketing.profiles', 'email_marketing.events']));
    for (const { key, e } of derived) {
      for (const [field, path] of Object.entries(e.derived ?? {})) {
        expect(e.searchable?.[field], `${key}.${field} is searchable`).toBeDefined();
        expect(e.fields[field], `${key}.${field} is not a top-level record field`).toBeUndefined();
        const spec = specAt(e.fields, path);
        expect(spec, `${key}: ${path} is a record field`).toBeDefined();
        const compatible = spec!.type === e.searchable![field] || (spec!.type === 'int' && e.searchable![field] === 'number');
        expect(compatible, `${key}.${field}: ${spec!.type} at ${path} vs searchable ${e.searchable![field]}`).toBe(true);
      }
    }
  });

  it("copy the sandbox's nested values up, keeping the record otherwise as read", () => {
    const sandbox = new Sandbox({ defaultSize: 3 });
    const issues = getEntityDef(getConnectorDef('issue_tracker'), 'issues');
    const raw = sandbox.records("issue_tracker", "issues").data[0] as Record<string, unknown> & { fields: { created: string; project: { key: string } } };
    const stored = withDerivedFields(issues, raw);
    expect(stored).toMatchObject({ created: raw.fields.created, projectKey: raw.fields.project.key, fields: raw.fields, id: raw.id });
    expect(raw).not.toHaveProperty('created');
  });

  it("keep the upstream's own top-level value, add nothing for an absent path, and return the record itself when nothing changes", () => {
    const issues = getEntityDef(getConnectorDef('issue_tracker'), 'issues');
    expect(withDerivedFields(issues, { id: '1', created: 'top', fields: { created: 'nested' } })).toMatchObject({ created: 'top' });
    const bare = { id: '2', fields: {} };
    expect(withDerivedFields(issues, bare)).toBe(bare);
    const customers = getEntityDef(getConnectorDef('payments'), 'customers');
    const c = { id: 'cus_1' };
    expect(withDerivedFields(customers, c)).toBe(c);
  });

  it('compose the id of vendor rows that carry none (email activity: campaign and email id), keeping an id a row has', () => {
    const sandbox = new Sandbox({ defaultSize: 3 });
    const activity = getEntityDef(getConnectorDef('email_campaigns'), 'email_activity');
    const raw = sandbox.records('email_campaigns', 'email_activity').data[0] as Record<string, unknown>;
    // The sandbox serves the rows as the platform does: no id of their own.
    expect(raw.id).toBeUndefined();
    const stored = withDerivedFields(activity, raw);
    expect(stored.id).toBe(`${String(raw.campaign_id)}:${String(raw.email_id)}`);
    expect(stored).toMatchObject(raw);
    expect(withDerivedFields(activity, { ...raw, id: 'own' }).id).toBe('own');
    // A part missing: no id is made up (the worker skips the row, saying so).
    expect(withDerivedFields(activity, { ...raw, email_id: undefined }).id).toBeUndefined();
    const ids = sandbox.records('email_campaigns', 'email_activity').data.map((r) => withDerivedFields(activity, r as Record<string, unknown>).id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('a part the reference types nullable (timeline start_time) that is null: a digest of the row stands in, the same whatever the key order', () => {
    const timeline = getEntityDef(getConnectorDef('live_chat_support'), 'agent_timeline');
    const row = { agent_id: 7, start_time: null, status: 'away', duration: 12.5, engagement_count: 2 };
    const id = withDerivedFields(timeline, row).id;
    expect(id).toMatch(/^7\|~[0-9a-f]{16}$/);
    expect(withDerivedFields(timeline, { engagement_count: 2, duration: 12.5, status: 'away', start_time: null, agent_id: 7 }).id).toBe(id);
    expect(withDerivedFields(timeline, { agent_id: 7, status: 'away', duration: 12.5, engagement_count: 2 }).id).not.toBe(id);
    expect(withDerivedFields(timeline, { ...row, status: 'online' }).id).not.toBe(id);
    expect(withDerivedFields(timeline, { ...row, start_time: '2026-01-01T00:00:00.000Z' }).id).toBe('7|2026-01-01T00:00:00.000Z');
  });
});
