import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'helpers/embedded-exit.ts');

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

function runFixture(mode: 'stop' | 'abandon'): { status: number | null; stderr: string; url: string; source: string } {
  const child = spawnSync(process.execPath, ['--import', 'tsx', FIXTURE, mode], { encoding: 'utf8', timeout: 60_000 });
  const last = child.stdout.trim().split('\n').at(-1) ?? '';
  const { url, source } = JSON.parse(last === '' ? '{}' : last) as { url: string; source: string };
  return { status: child.status, stderr: child.stderr, url, source };
}

describe('local Postgres and process exit', () => {
  it('a process that stopped its server ends with its own exit code and no trace', () => {
    const run = runFixture('stop');
    expect(run.status).toBe(3);
    // The embedded package's exit hook called back a callback it was never given, printing a
    // "done is not a function" trace at the end of every process that used it.
    expect(run.stderr).not.toMatch(/done is not a function/);
  }, 90_000);

  it('a process that exits with its server still running keeps its exit code and stops the server', async () => {
    const run = runFixture('abandon');
    expect(run.status).toBe(3);
    if (run.source !== 'local') return; // a container outlives the process by design (testcontainers reaps it)
    let up = true;
    for (let i = 0; i < 50 && up; i++) {
      up = await reachable(run.url);
      if (up) await new Promise((r) => setTimeout(r, 200));
    }
    expect(up).toBe(false);
  }, 90_000);
});
