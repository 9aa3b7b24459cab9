/** The API reference at /docs in a real browser: Swagger UI renders every tag and the execute route under its CSP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../integration/helpers/harness.js';
import { HAVE_CHROMIUM, openBrowser, type Browser } from './helpers/browser.js';

describe.skipIf(!HAVE_CHROMIUM)('/docs in headless Chromium', () => {
  let h: Harness;
  let b: Browser;
  let baseUrl: string;

  beforeAll(async () => {
    h = await startHarness({ worker: false });
    baseUrl = await h.app.listen({ port: 0, host: '127.0.0.1' });
    b = await openBrowser();
  });
  afterAll(async () => {
    await b?.close();
    await h?.close();
  });

  it('renders the OpenAPI document with Swagger UI, no token, no script errors', async () => {
    await b.page.goto(`${baseUrl}/docs`);
    await b.page.locator('.swagger-ui .info .title').waitFor({ timeout: 20_000 });
    expect(await b.page.locator('.swagger-ui .info .title').innerText()).toContain('syncdex');
    for (const tag of ['connectors', 'admin', 'ops']) await b.page.locator(`.opblock-tag-section h3[data-tag="${tag}"]`).waitFor();
    const execute = b.page.locator('.opblock-post .opblock-summary-path[data-path="/api/v1/integrations/connectors/{id}/execute"]');
    await execute.waitFor();
    await execute.click();
    await b.page.locator('.opblock.is-open .responses-table').first().waitFor();
    expect(await b.page.locator('.opblock.is-open .responses-table').first().innerText()).toContain('unavailable');
    await b.screenshot('api-docs.png');
    expect(b.errors).toEqual([]);
  });
});
