/**
 * Debian's headless Chromium driven by playwright-core, for the browser tests: one persistent
 * context in a temp profile, console errors (CSP violations included) collected, screenshots
 * written under artifacts/ (not committed).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
// The user data dir is passed as launchPersistentContext's first argument (Playwright refuses it in args).
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

if (!HAVE_CHROMIUM) process.stderr.write(`\n⚠ SKIPPING browser tests: Chromium not found at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)\n\n`);

/** A running browser page. */
export interface Browser {
  readonly page: Page;
  /** Console errors and uncaught exceptions so far. */
  readonly errors: string[];
  screenshot(name: string): Promise<void>;
  close(): Promise<void>;
}

export async function openBrowser(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'syncdex-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1400, height: 1000 } });
  } catch (e) {
    rmSync(profile, { recursive: true, force: true });
    throw e;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
  page.on('pageerror', (e) => void errors.push(e.message));
  return {
    page,
    errors,
    screenshot: async (name) => {
      mkdirSync('artifacts', { recursive: true });
      await page.screenshot({ path: join('artifacts', name), fullPage: true });
    },
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
