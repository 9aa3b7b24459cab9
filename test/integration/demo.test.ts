/**
 * `syncdex demo` as a newcomer runs it, on the embedded default and with `--search opensearch`
 * (this run's OpenSearch, through OPENSEARCH_URL): every search kind prints hits, and both
 * backends print the same hits in the same order.
 */
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { realOpenSearch } from './helpers/real-opensearch.js';

type Result = { code: number; stdout: string; stderr: string };

function demo(args: string[], env: Record<string, string> = {}): Promise<Result> {
  return new Promise((resolve) => {
    // The demo embeds its own Postgres: no DATABASE_URL from the test environment.
    const { DATABASE_URL: _db, OPENSEARCH_URL: _os, ...base } = process.env;
    execFile(process.execPath, ['bin/syncdex.mjs', 'demo', '--customers', '800', ...args], { env: { ...base, ...env }, timeout: 180_000 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
    });
  });
}

/** The printed searches without what differs between runs: timings, cursors, progress lines. */
function hitsOf(out: string): string {
  return out
    .split('\n')
    .filter((l) => !/^(run |store |starting|syncing)/.test(l))
    .map((l) => l.replace(/took_ms=[\d.]+/, 'took_ms=T').replace(/next_cursor=1\.\S+/, 'next_cursor=C'))
    .join('\n');
}

const osUrl = realOpenSearch('demo --search opensearch');

describe('syncdex demo', () => {
  let postgres = '';

  it('syncs two connector kinds and prints one search of each kind with hits', async () => {
    const r = await demo([]);
    expect(r.code, r.stderr).toBe(0);
    for (const kind of ['eq email', 'and [currency', 'next page', 'fuzzy name', 'like email', 'keyword description', 'any email_addresses', 'sort created desc']) expect(r.stdout).toContain(kind);
    const counts = [...r.stdout.matchAll(/(\d+) hits, took_ms=/g)].map((m) => Number(m[1]));
    expect(counts).toHaveLength(8);
    expect(counts.every((n) => n > 0), r.stdout).toBe(true);
    postgres = hitsOf(r.stdout);
  }, 200_000);

  it.skipIf(osUrl === null)('--search opensearch prints the same hits as the Postgres demo', async () => {
    const r = await demo(['--search', 'opensearch'], { OPENSEARCH_URL: inject('opensearchUrl') as string });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('search opensearch');
    expect(hitsOf(r.stdout)).toBe(postgres);
  }, 200_000);
});
