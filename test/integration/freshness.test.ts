/**
 * Freshness at a glance: each entity's copy age and staleness (older than twice its schedule) in
 * the tenant and admin connector views and in /metrics, from the entity's real sync times.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSyncedHarness, type Harness } from './helpers/harness.js';

type Entity = { entity: string; last_synced_at: string | null; freshness: { age_seconds: number | null; stale: boolean; schedule: string; stale_after_seconds: number } };

describe('freshness of synced copies', () => {
  let h: Harness;
  let id: string;
  let user: string;
  let admin: string;

  beforeAll(async () => {
    ({ h, id } = await startSyncedHarness(30));
    user = await h.token();
    admin = await h.token('ops', true);
  });
  afterAll(async () => h?.close());

  const tenantView = async () => (await h.app.inject({ method: 'GET', url: `/api/v1/integrations/connectors/${id}`, headers: { authorization: `Bearer ${user}` } })).json() as { entities: Entity[] };
  const adminView = async () => (await h.app.inject({ method: 'GET', url: `/admin/api/connectors/${id}`, headers: { authorization: `Bearer ${admin}` } })).json() as { entities: Entity[] };

  it('shows a fresh copy after a sync: its age, schedule and when it would turn stale', async () => {
    const [e] = (await tenantView()).entities;
    expect(e?.last_synced_at).not.toBeNull();
    expect(e?.freshness).toMatchObject({ schedule: '1h', stale_after_seconds: 7200, stale: false });
    expect(e?.freshness.age_seconds).toBeLessThan(60);
  });

  it('marks a copy older than twice its schedule stale, in both views and in /metrics', async () => {
    await sql`update entity_state set last_synced_at = now() - interval '3 hours' where connector_id = ${id}::uuid`.execute(h.deps.db);
    for (const view of [await tenantView(), await adminView()]) {
      const [e] = view.entities;
      expect(e?.freshness.stale).toBe(true);
      expect(e?.freshness.age_seconds).toBeGreaterThanOrEqual(3 * 3600);
    }
    const metrics = (await h.app.inject({ method: 'GET', url: '/metrics' })).body;
    const age = new RegExp(`syncdex_entity_copy_age_seconds\\{connector_id="${id}",connector_type="payments",entity="customers"\\} (\\d+)`).exec(metrics);
    expect(Number(age?.[1])).toBeGreaterThanOrEqual(3 * 3600);
    expect(metrics).toMatch(/syncdex_entities_stale\{connector_type="payments",entity="customers"\} 1/);
  });
});
