/**
 * The planner's requests against the sandbox's validation, for every replicable entity of every
 * kind: parents resolved through the runtime, every page fetched, nothing rejected, and exactly
 * the sandbox's records (union over partitions) read.
 */
import { describe, expect, it } from 'vitest';
import { catalog } from '../../../src/connectors/catalog/index.js';
import type { ConnectorDef, EntityDef } from '../../../src/connectors/catalog/types.js';
import { firstPageParams, nextPageParams, readCall, recordIdOf, recordsOf, runtimeParams } from '../../../src/connectors/planner.js';
import { BASE_TIME } from '../../../src/sandbox/generate.js';
import { InProcessRuntime } from '../../../src/sandbox/in-process.js';
import { Sandbox } from '../../../src/sandbox/sandbox.js';
import { readPartition, resolvePartitions, type ReadContext } from '../../../src/worker/parent-values.js';

const CONFIG = { account_ids: '1001,1002' };
const CREDS = { api_key: 'test' };
const NO_WAIT = { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, maxRateLimitWaitMs: 0 };

function setup(opts: { defaultSize?: number; nestedSize?: number } = {}): { sb: Sandbox; rt: InProcessRuntime; ctx: (kind: ConnectorDef) => ReadContext } {
  const sb = new Sandbox({ defaultSize: opts.defaultSize ?? 4, nestedSize: opts.nestedSize ?? 2 });
  const rt = new InProcessRuntime(sb);
  return { sb, rt, ctx: (kind) => ({ runtime: rt, connector: kind, credentials: CREDS, config: CONFIG, policy: NO_WAIT }) };
}

/** Reads every partition of an entity; returns the ids read and how many runtime calls it took. */
async function readAll(rc: ReadContext, entity: EntityDef): Promise<{ ids: string[]; partitions: number }> {
  const partitions = await resolvePartitions(rc, entity);
  const ids: string[] = [];
  for (const p of partitions) for await (const page of readPartition(rc, entity, p)) ids.push(...page.map((r) => String(recordIdOf(entity, r))));
  return { ids, partitions: partitions.length };
}

const replicable = Object.values(catalog).flatMap((kind) =>
  Object.values(kind.entities).flatMap((entity) => (entity.read === undefined ? [] : [{ kind, entity, key: `${kind.key}.${entity.name}` }])),
);

describe('every replicable entity of every kind', () => {
  it('covers all 16 kinds that have entities', () => {
    expect(new Set(replicable.map((r) => r.kind.key)).size).toBe(16);
    expect(replicable.length).toBeGreaterThan(100);
  });

  it.each(replicable.map((r) => [r.key, r] as const))('%s: full read passes validation and matches the sandbox', async (_key, { kind, entity }) => {
    const { sb, rt, ctx } = setup();
    const { ids } = await readAll(ctx(kind), entity);
    const truth = sb.records(kind.key, entity.name, { config: CONFIG });
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(truth.count);
    expect(new Set(ids)).toEqual(new Set(truth.data.map((r) => String(recordIdOf(entity, r)))));
    const call = readCall(entity);
    expect(rt.calls.filter((c) => c.entity === call.entity).every((c) => c.action === call.action)).toBe(true);
  });

  const incremental = replicable.filter((r) => r.entity.read?.incremental !== undefined);
  it.each(incremental.map((r) => [r.key, r] as const))('%s: an incremental first page passes and narrows the read', async (_key, { kind, entity }) => {
    const { sb, rt, ctx } = setup({ defaultSize: 30 });
    const [partition] = await resolvePartitions(ctx(kind), entity);
    let params: Record<string, unknown> | null = firstPageParams(entity, partition ?? {}, BASE_TIME - 10 * 37);
    const ids: unknown[] = [];
    while (params !== null) {
      const page = await rt.execute({ connectorType: kind.key, credentials: CREDS, ...readCall(entity), params: runtimeParams(kind, entity, params) });
      const records = recordsOf(entity, page.data);
      ids.push(...records.map((r) => recordIdOf(entity, r)));
      params = nextPageParams(entity, params, { records, meta: page.meta });
    }
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.length).toBeLessThan(sb.dataset(kind.key, entity.name, sb.partitions(kind.key, entity.name, CONFIG)[0]?.scope ?? '').liveCount + 1);
  });
});

describe('multi-page reads in each paging style', () => {
  const cases: [string, string, number, number][] = [
    ['payments', 'customers', 250, 3], // last_id + has_more
    ['live_chat_support', 'agents', 150, 3], // last_id, an empty page ends it
    ['crm', 'contacts', 150, 2], // token next_cursor
    ['sales_call_intelligence', 'users', 150, 2], // token pagination.cursor, server page of 100
    ['work_management', 'workspaces', 150, 2], // token next_page.offset
    ['issue_tracker', 'projects', 150, 2], // token + isLast
    ['task_tracker', 'issues', 300, 2], // token + hasNextPage
    ['table_platform', 'bases', 150, 2], // token offset, no page size
    ['applicant_tracking', 'candidates', 600, 2], // page numbers, short page ends
    ['email_campaigns', 'campaigns', 1200, 2], // offset + total_items
    ['issue_tracker', 'users', 120, 3], // offset + total, max 50
    ['live_chat_support', 'chats', 1500, 3], // time export: ends when next_page stops advancing
    ['live_chat_support', 'departments', 150, 1], // none
  ];
  it.each(cases)('%s.%s: %i records', async (kindKey, name, size, calls) => {
    const kind = catalog[kindKey] as ConnectorDef;
    const entity = kind.entities[name] as EntityDef;
    const { sb, rt, ctx } = setup();
    sb.configure({ connectorType: kindKey, entity: name, size });
    const { ids } = await readAll(ctx(kind), entity);
    expect(new Set(ids).size).toBe(size);
    expect(rt.calls.length).toBe(calls);
  });
});

describe('section 7 rules are met by the planned requests', () => {
  it('issues JQL is bounded per project, campaigns carry a channel, tasks a project', async () => {
    const { rt, ctx } = setup();
    for (const [kindKey, name] of [['issue_tracker', 'issues'], ['email_marketing', 'campaigns'], ['work_management', 'tasks']] as const) {
      const kind = catalog[kindKey] as ConnectorDef;
      await readAll(ctx(kind), kind.entities[name] as EntityDef);
    }
    const byEntity = (k: string, e: string) => rt.calls.filter((c) => c.connectorType === k && c.entity === e).map((c) => c.params);
    for (const p of byEntity('issue_tracker', 'issues')) expect(p.jql).toMatch(/^project = "[A-Z0-9]+" ORDER BY created ASC$/);
    expect(new Set(byEntity('email_marketing', 'campaigns').map((p) => p.filter))).toEqual(new Set(['email', 'sms']));
    for (const p of byEntity('work_management', 'tasks')) expect(typeof p.project).toBe('string');
  });
});
