import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countLive } from '../../src/store/records-repo.js';
import { requestSync } from '../../src/worker/request-sync.js';
import { findConnector } from '../../src/store/connectors-repo.js';
import { startHarness, type Harness } from './helpers/harness.js';

describe('sync of payments customers from the sandbox (Postgres queue backend)', () => {
  let h: Harness;
  let connectorId: string;

  beforeAll(async () => {
    h = await startHarness();
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: 2500 });
    connectorId = (await h.createConnector(await h.token())).id;
  });
  afterAll(async () => h?.close());

  it('lands exactly the 2,500 sandbox customers', async () => {
    const [run] = await h.runsOf(connectorId);
    const final = await h.waitRun(run!.id);
    expect(final.status).toBe('succeeded');
    expect(Number(final.inserted)).toBe(2500);
    expect(final.pages).toBe(25);
    expect(await countLive(h.deps.db, connectorId, 'customers')).toBe(2500);
    const stored = await h.deps.db.selectFrom('records').select(['record_id', 'data']).where('connector_id', '=', connectorId).execute();
    const expected = h.sandbox.dataset('payments', 'customers').all();
    expect(new Set(stored.map((r) => r.record_id))).toEqual(new Set(expected.map((r) => String(r.id))));
    const byId = new Map(stored.map((r) => [r.record_id, r.data]));
    for (const rec of expected.slice(0, 50)) expect(byId.get(String(rec.id))).toEqual(rec);
  });

  it('a second sync of unchanged data changes nothing', async () => {
    const before = await h.deps.db.selectFrom('records').select(['record_id', 'version', 'updated_at']).where('connector_id', '=', connectorId).orderBy('record_id').execute();
    const connector = await findConnector(h.deps.db, connectorId);
    const run = await requestSync(h.deps, connector!, { entity: 'customers', trigger: 'manual', mode: 'full' });
    const final = await h.waitRun(run.id);
    expect(final.status).toBe('succeeded');
    expect([Number(final.inserted), Number(final.updated), Number(final.deleted), Number(final.unchanged)]).toEqual([0, 0, 0, 2500]);
    const after = await h.deps.db.selectFrom('records').select(['record_id', 'version', 'updated_at']).where('connector_id', '=', connectorId).orderBy('record_id').execute();
    expect(after).toEqual(before);
  });

  it('records stored with an md5 content hash (before session 35) are not rewritten while unchanged; a changed one is stored with its sha1', async () => {
    // As an older version stored them: md5 of the bytes the runtime sent.
    for (const rec of h.sandbox.dataset('payments', 'customers').all()) {
      await h.deps.db.updateTable('records').set({ content_hash: createHash('md5').update(JSON.stringify(rec)).digest('hex') }).where('connector_id', '=', connectorId).where('record_id', '=', String(rec.id)).execute();
    }
    const [changedId] = h.sandbox.mutate('payments', 'customers', { update: 1 }).updated.map(String);
    const before = await h.deps.db.selectFrom('records').select(['record_id', 'version', 'content_hash']).where('connector_id', '=', connectorId).orderBy('record_id').execute();
    const connector = await findConnector(h.deps.db, connectorId);
    const final = await h.waitRun((await requestSync(h.deps, connector!, { entity: 'customers', trigger: 'manual', mode: 'full' })).id);
    expect([Number(final.inserted), Number(final.updated), Number(final.unchanged)]).toEqual([0, 1, 2499]);
    const after = await h.deps.db.selectFrom('records').select(['record_id', 'version', 'content_hash', 'data']).where('connector_id', '=', connectorId).orderBy('record_id').execute();
    const changed = after.find((r) => r.record_id === changedId);
    const sent = h.sandbox.dataset('payments', 'customers').all().find((r) => String(r.id) === changedId);
    expect(changed?.data).toEqual(sent);
    expect(changed?.content_hash).toBe(createHash('sha1').update(JSON.stringify(sent)).digest('hex'));
    expect(after.filter((r) => r.record_id !== changedId).map(({ record_id, version, content_hash }) => ({ record_id, version, content_hash }))).toEqual(before.filter((r) => r.record_id !== changedId));
  });

  it('records and run state agree: entity is ready with its record count', async () => {
    const state = await h.deps.db.selectFrom('entity_state').selectAll().where('connector_id', '=', connectorId).executeTakeFirstOrThrow();
    expect(state.status).toBe('ready');
    expect(Number(state.record_count)).toBe(2500);
    expect(state.last_synced_at).not.toBeNull();
  });
});

describe('replication_config.start_date', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: 900 });
  });
  afterAll(async () => h?.close());

  it('full runs read only records created since start_date, and their deletion detection keeps them', async () => {
    const all = h.sandbox.dataset('payments', 'customers').all();
    const created = all.map((r) => Number(r.created)).sort((a, b) => a - b);
    const startSec = created[Math.floor(created.length / 3)]!;
    const expected = all.filter((r) => Number(r.created) >= startSec).map((r) => String(r.id)).sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.length);
    const startDate = new Date(startSec * 1000).toISOString();
    const id = (await h.createConnector(await h.token(), { replication_config: { entities: ['customers'], start_date: startDate } })).id;
    const [run] = await h.runsOf(id);
    expect(await h.waitRun(run!.id)).toMatchObject({ status: 'succeeded', error: null });
    const stored = async () => (await h.deps.db.selectFrom('records').select('record_id').where('connector_id', '=', id).where('deleted_at', 'is', null).execute()).map((r) => r.record_id).sort();
    expect(await stored()).toEqual(expected);
    const connector = await findConnector(h.deps.db, id);
    const again = await requestSync(h.deps, connector!, { entity: 'customers', trigger: 'manual', mode: 'full' });
    const final = await h.waitRun(again.id);
    expect([final.status, Number(final.deleted), Number(final.unchanged)]).toEqual(['succeeded', 0, expected.length]);
    expect(await stored()).toEqual(expected);
  });
});

