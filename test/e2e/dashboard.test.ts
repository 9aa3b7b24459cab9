/**
 * The dashboard in a real browser: Debian's headless Chromium driven by playwright-core. Logs in
 * with an admin token, finds a failed run, replays it through the confirmation dialog and sees
 * the replay succeed; on the way, a connector named like an XSS payload must render as text.
 */
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../integration/helpers/harness.js';
import { HAVE_CHROMIUM, openBrowser, type Browser } from './helpers/browser.js';

const HOSTILE_NAME = '<img src=x onerror="window.__xss=1">Shop';

describe.skipIf(!HAVE_CHROMIUM)('dashboard in headless Chromium', () => {
  let h: Harness;
  let browser: Browser;
  let page: Page;
  let baseUrl: string;
  let admin: string;
  let failedRunId: string;
  let connectorId: string;

  beforeAll(async () => {
    h = await startHarness();
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: 150 });
    admin = await h.token('ops', true);
    const connector = await h.createConnector(await h.token('acme'), { name: HOSTILE_NAME });
    connectorId = connector.id;
    expect((await h.waitRun((await h.runsOf(connector.id))[0]!.id)).status).toBe('succeeded');
    // A run that fails: the third party refuses every call until the fault is cleared.
    h.sandbox.faults.arm({ kind: 'status', status: 401, count: -1, connectorType: 'payments', entity: 'customers', message: 'token revoked upstream' });
    const res = await h.app.inject({ method: 'POST', url: `/admin/api/connectors/${connector.id}/sync`, headers: { authorization: `Bearer ${admin}` }, payload: { entity: 'customers' } });
    failedRunId = (res.json() as { runs: { id: string }[] }).runs[0]!.id;
    expect((await h.waitRun(failedRunId)).status).toBe('failed');
    h.sandbox.faults.clear();
    baseUrl = await h.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await openBrowser();
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('logs in with an admin token and shows the failed run with its error', async () => {
    await page.goto(`${baseUrl}/admin`);
    await page.fill('#token', admin);
    await page.click('#login-form button[type=submit]');
    const row = page.locator(`tr[data-run-id="${failedRunId}"][data-status="failed"]`);
    await row.waitFor({ timeout: 15_000 });
    await expect.poll(() => row.locator('.error-cell').innerText(), { timeout: 15_000 }).toContain('token revoked upstream');
    const stored = await page.evaluate(() => (globalThis as unknown as { sessionStorage: { getItem(k: string): string | null } }).sessionStorage.getItem('syncdex.adminToken'));
    expect(stored).toBe(admin);
  });

  it('renders hostile connector names as text, running nothing', async () => {
    await page.locator('.card .name').first().waitFor();
    expect(await page.locator('.card .name').first().innerText()).toBe(HOSTILE_NAME);
    expect(await page.locator('.card img, #runs img').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as unknown as { __xss?: number }).__xss)).toBeUndefined();
  });

  it('replays the failed run after confirming, and shows the replay succeed', async () => {
    const questions: string[] = [];
    page.once('dialog', (d) => void (questions.push(d.message()), d.accept()));
    await page.locator(`tr[data-run-id="${failedRunId}"] button[data-action="replay"]`).click();
    await expect.poll(() => questions.length, { timeout: 15_000 }).toBe(1);
    expect(questions[0]).toContain(`#${failedRunId}`);
    const replayOf = async () => (await h.deps.db.selectFrom('sync_runs').select('id').where('replay_of', '=', failedRunId).executeTakeFirst())?.id;
    await expect.poll(replayOf, { timeout: 10_000 }).toBeDefined();
    const replay = (await replayOf()) as string;
    await page.locator(`tr[data-run-id="${replay}"][data-status="succeeded"]`).waitFor({ timeout: 60_000 });
    expect(await page.locator(`tr[data-run-id="${replay}"]`).innerText()).toContain(`replay of #${failedRunId}`);
    await page.locator('#chart svg rect').first().waitFor();
    await browser.screenshot('dashboard.png');
  });

  it('pages to older runs along next_cursor, keeping one range with no gap as new runs arrive', async () => {
    const addRuns = async (n: number) =>
      sql`insert into sync_runs (connector_id, entity, trigger, mode, status, queued_at, finished_at)
          select ${connectorId}::uuid, 'customers', 'manual', 'full', 'succeeded', now(), now() from generate_series(1, ${n})`.execute(h.deps.db);
    const allIds = async () => (await h.deps.db.selectFrom('sync_runs').select('id').orderBy('id', 'desc').execute()).map((r) => r.id);
    const shown = () => page.locator('#runs tbody tr[data-run-id]').evaluateAll((trs) => trs.map((tr) => (tr as unknown as { dataset: { runId: string } }).dataset.runId));
    await addRuns(120);
    const ids = await allIds();
    await expect.poll(shown, { timeout: 15_000 }).toEqual(ids.slice(0, 50));
    await page.click('#more');
    await expect.poll(shown, { timeout: 15_000 }).toEqual(ids.slice(0, 100));
    // 100 new runs push the first page down past the rows shown: the table must still reach its
    // floor (pages may overshoot it by up to a page: any range from the newest down past it will do).
    await addRuns(100);
    const all = await allIds();
    const range = async () => { const s = await shown(); return s.length >= 200 && s.every((id, i) => id === all[i]) ? 'contiguous' : `${s.length} rows, ${s[0]}..${s[s.length - 1]}`; };
    await expect.poll(range, { timeout: 15_000 }).toBe('contiguous');
    if ((await shown()).length < all.length) await page.click('#more');
    await expect.poll(shown, { timeout: 15_000 }).toEqual(await allIds());
    expect(await page.locator('#more').isHidden()).toBe(true);
  });

  it('logged no script errors on the dashboard (CSP violations included)', () => {
    expect(browser.errors).toEqual([]);
  });

  it('opens bull-board with the session cookie the login set', async () => {
    // bull-board's own page is not ours to police: stop collecting console errors here.
    page.removeAllListeners('console');
    const res = await page.goto(`${baseUrl}/admin/queues`);
    expect(res?.status()).toBe(200);
    const api = await page.evaluate(async () => (await fetch('/admin/queues/api/queues')).status);
    expect(api).toBe(200);
  });

});
