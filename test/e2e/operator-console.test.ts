/**
 * What an operator sees at a glance and tries by hand, in headless Chromium: logging in through
 * the login link `demo --serve` prints, a stale entity marked as such, and the search console
 * (a fuzzy search paged to its next page, a filter error shown at its path).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../integration/helpers/harness.js';
import { HAVE_CHROMIUM, openBrowser, type Browser } from './helpers/browser.js';

describe.skipIf(!HAVE_CHROMIUM)('operator console in headless Chromium', () => {
  let h: Harness;
  let b: Browser;
  let baseUrl: string;
  let admin: string;
  let connectorId: string;

  beforeAll(async () => {
    h = await startHarness();
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: 120 });
    // The operator's token belongs to an organization of its own: the console reaches the
    // customer's connector through the admin scope only.
    admin = await h.token('ops', true);
    connectorId = (await h.createConnector(await h.token('acme'), { name: 'Acme payments' })).id;
    expect((await h.waitRun((await h.runsOf(connectorId))[0]!.id)).status).toBe('succeeded');
    baseUrl = await h.app.listen({ port: 0, host: '127.0.0.1' });
    b = await openBrowser();
  });
  afterAll(async () => {
    await b?.close();
    await h?.close();
  });

  it('logs in through a login link, which leaves the address bar at once', async () => {
    await b.page.goto(`${baseUrl}/admin#token=${admin}`);
    await b.page.locator(`.card[data-connector-id="${connectorId}"]`).waitFor({ timeout: 15_000 });
    expect(b.page.url()).toBe(`${baseUrl}/admin`);
  });

  it('marks an entity whose copy is older than twice its schedule as stale', async () => {
    const row = b.page.locator(`.card[data-connector-id="${connectorId}"] tr[data-entity="customers"]`);
    await expect.poll(() => row.getAttribute('data-stale')).toBe('false');
    await sql`update entity_state set last_synced_at = now() - interval '3 hours' where connector_id = ${connectorId}::uuid`.execute(h.deps.db);
    await row.locator('.badge.stale').waitFor({ timeout: 15_000 });
    expect(await row.locator('.freshness').innerText()).toMatch(/3 h \d+ m old\s+stale/);
    expect(await b.page.locator('#freshness-summary').innerText()).toContain('1 of 1 synced copies are stale: Acme payments / customers');
    await b.screenshot('dashboard-freshness.png');
  });
});
