/** The `syncdex` command as operators run it: a real process on the test database, exit codes included. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildDeps, type Deps } from '../../src/app/deps.js';
import { loadConfig } from '../../src/config.js';
import { loadSealedSecret } from '../../src/store/connectors-repo.js';
import { openJson } from '../../src/store/crypto.js';
import { createLogger } from '../../src/logger.js';
import { startWorker, type RunningWorker } from '../../src/worker/start-worker.js';
import { startHarness, type Harness } from './helpers/harness.js';

type Result = { code: number; stdout: string; stderr: string };

describe('syncdex CLI', () => {
  let h: Harness;
  let env: Record<string, string>;
  let deps: Deps;
  let worker: RunningWorker;
  let connectorId: string;
  let runId: string;

  const cliWith = (extra: Record<string, string>, ...args: string[]): Promise<Result> =>
    new Promise((resolve) => {
      const child = execFile(process.execPath, ['bin/syncdex.mjs', ...args], { env: { ...process.env, ...env, ...extra }, timeout: 60_000 }, (err, stdout, stderr) => {
        resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
      });
      child.stdin?.end(stdin);
    });
  let stdin = '';
  const cli = (...args: string[]): Promise<Result> => cliWith({}, ...args);
  const json = <T>(r: Result): T => {
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as T;
  };

  beforeAll(async () => {
    // No harness worker: the CLI seals credentials with CREDENTIALS_KEY, so the worker must share it.
    h = await startHarness({ worker: false });
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: 40 });
    env = {
      DATABASE_URL: h.deps.config.databaseUrl as string,
      CONNECTOR_RUNTIME_URL: h.deps.config.runtimeUrl as string,
      QUEUE_BACKEND: 'postgres',
      CREDENTIALS_KEY: `k1:${randomBytes(32).toString('base64')}`,
      CURSOR_SECRET: randomBytes(24).toString('hex'),
      LOG_LEVEL: 'warn',
    };
    deps = buildDeps(loadConfig(env), { logger: createLogger('warn', process.stderr) });
    worker = startWorker(deps, { concurrency: 2 });
  });
  afterAll(async () => {
    await worker?.close();
    await deps?.close();
    await h?.close();
  });

  it('creates a token and a connector, and lists and shows it', async () => {
    expect(json<{ token: string }>(await cli('tokens', 'create', '--org', 'cli-org', '--admin', '--json')).token).toMatch(/^sdx_/);
    const created = json<{ id: string; name: string }>(await cli('connectors', 'create', '--org', 'cli-org', '--type', 'payments', '--name', 'CLI shop', '--credentials', '{"api_key":"sk_cli_secret"}', '--config', '{"entities":["customers"]}', '--json'));
    connectorId = created.id;
    expect(created.name).toBe('CLI shop');
    const [run] = await h.runsOf(connectorId);
    runId = run!.id;
    expect((await h.waitRun(runId)).status).toBe('succeeded');
    const listed = json<{ id: string }[]>(await cli('connectors', 'list', '--org', 'cli-org', '--json'));
    expect(listed.map((c) => c.id)).toEqual([connectorId]);
    const shown = await cli('connectors', 'show', connectorId);
    expect(shown.stdout).toContain('customers');
    expect(shown.stdout).toContain('40 records');
    expect(shown.stdout + shown.stderr).not.toContain('sk_cli_secret');
  });

  it('lists runs with filters and replays one, waiting for it', async () => {
    const runs = json<{ id: string; status: string }[]>(await cli('runs', '--connector', connectorId, '--status', 'succeeded', '--entity', 'customers', '--json'));
    expect(runs.map((r) => r.id)).toEqual([runId]);
    const replay = json<{ replay_of: string; status: string; counters: { seen: number } }>(await cli('replay', runId, '--from-start', '--wait', '--json'));
    expect(replay).toMatchObject({ replay_of: runId, status: 'succeeded', counters: { seen: 40 } });
    // Keyset pages: the newest run, then (with the cursor stderr names) the one before it, then none.
    const first = await cli('runs', '--connector', connectorId, '--limit', '1', '--json');
    const cursor = /more runs: --cursor (\S+)/.exec(first.stderr)?.[1];
    expect(json<{ id: string }[]>(first).map((r) => r.id), first.stderr).toHaveLength(1);
    expect(cursor, first.stderr).toBeDefined();
    const second = await cli('runs', '--connector', connectorId, '--limit', '1', '--cursor', cursor as string, '--json');
    expect([...json<{ id: string }[]>(first), ...json<{ id: string }[]>(second)].map((r) => r.id).sort()).toEqual([runId, (replay as unknown as { id: string }).id].sort());
    expect(second.stderr).not.toContain('more runs');
  });

  it('searches like the API: hits of a replicated entity; an entity not replicated and a NUL in a filter are errors naming the field', async () => {
    const found = json<{ hits: { id: string }[] }>(await cli('search', connectorId, 'customers', '--limit', '5', '--json'));
    expect(found.hits).toHaveLength(5);
    const notReplicated = await cli('search', connectorId, 'charges');
    expect(notReplicated.code).toBe(1);
    expect(notReplicated.stderr).toContain('entity_not_searchable');
    const nul = await cli('search', connectorId, 'customers', '--filter', '{"eq":{"email":"a\\u0000b"}}');
    expect(nul.code).toBe(1);
    expect(nul.stderr).toContain('invalid_query');
    expect(nul.stderr).toContain('query.filter.eq.email');
  });

  it('lists tokens without their secret and revokes one by id: the API refuses it from then on', async () => {
    const created = json<{ token: string; id: string }>(await cli('tokens', 'create', '--org', 'cli-org', '--label', 'ci-bot', '--json'));
    const listed = await cli('tokens', 'list', '--org', 'cli-org', '--json');
    expect(json<{ id: string; label: string; revoked_at: string | null }[]>(listed).find((t) => t.id === created.id)).toMatchObject({ label: 'ci-bot', revoked_at: null });
    expect(listed.stdout).not.toContain(created.token);
    const list = () => h.app.inject({ method: 'GET', url: '/api/v1/integrations/connectors', headers: { authorization: `Bearer ${created.token}` } });
    expect((await list()).statusCode).toBe(200);
    expect((await cli('tokens', 'revoke', created.id)).code).toBe(0);
    expect((await list()).statusCode).toBe(401);
    const again = await cli('tokens', 'revoke', created.id);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('not_found');
  });

  it('prints the catalog as JSON and as a summary', async () => {
    const catalog = json<Record<string, { entities: Record<string, { id_field: string; searchable: unknown; source: string; actions: string[] }> }>>(await cli('catalog', '--json'));
    expect(Object.keys(catalog)).toHaveLength(17);
    expect(catalog.payments?.entities.customers).toMatchObject({ id_field: 'id', source: 'reference', actions: expect.arrayContaining(['search']) });
  });

  it('exits non-zero on failure, naming the problem', async () => {
    const bad = await cli('runs', '--status', 'bogus');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('status');
    const missing = await cli('replay', '999999');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('not_found');
    for (const limit of ['0', '', '-3', '1.5']) {
      const res = await cli('connectors', 'list', '--org', 'cli-org', `--limit=${limit}`);
      expect(res.code, limit).toBe(1);
      expect(res.stderr, limit).toContain('--limit must be an integer from 1');
    }
    expect((await cli('no-such-command')).code).toBe(2);
    expect((await cli()).code).toBe(2);
    const help = await cli('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('connectors create');
    expect((await cli('runs', '--help')).code).toBe(0);
    // Malformed credentials are named, never echoed (shell output ends up in CI logs).
    const leaky = await cli('connectors', 'create', '--org', 'cli-org', '--type', 'payments', '--name', 'x', '--credentials', "{api_key:'sk_live_do_not_print'}");
    expect(leaky.code).toBe(1);
    expect(leaky.stderr).toContain('--credentials must be valid JSON');
    expect(leaky.stdout + leaky.stderr).not.toContain('sk_live_do_not_print');
  });

  it('reads credentials from a file or stdin, keeping them out of the process list', async () => {
    // In a directory of its own, removed afterwards: a credentials file must not outlive the test.
    const dir = mkdtempSync(join(tmpdir(), 'syncdex-cli-creds-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'creds.json');
    writeFileSync(file, '{"api_key":"sk_from_file"}\n', { mode: 0o600 });
    const base = ['connectors', 'create', '--org', 'cli-org', '--type', 'payments', '--name', 'from file', '--config', '{"entities":["customers"]}', '--json'];
    const fromFile = json<{ id: string }>(await cli(...base, '--credentials-file', file));
    stdin = '{"api_key":"sk_from_stdin"}';
    const fromStdin = json<{ id: string }>(await cli(...base, '--credentials-file', '-'));
    stdin = '';
    for (const [id, secret] of [[fromFile.id, 'sk_from_file'], [fromStdin.id, 'sk_from_stdin']] as const) {
      const sealed = await loadSealedSecret(deps.db, id);
      expect(sealed.ciphertext.toString('latin1')).not.toContain(secret);
      expect(openJson(deps.keyring, sealed.keyId, sealed.ciphertext, id)).toEqual({ api_key: secret });
    }
    const missing = await cli(...base, '--credentials-file', '/nonexistent/creds.json');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--credentials-file: cannot read /nonexistent/creds.json (ENOENT)');
    const both = await cli(...base, '--credentials-file', file, '--credentials', '{"api_key":"k"}');
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('not both');
  });

  it('needs the secrets only for the commands that use them', async () => {
    const bare = { CREDENTIALS_KEY: '', CURSOR_SECRET: '' };
    const list = await cliWith(bare, 'connectors', 'list', '--json');
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(list.stdout))).toContain(connectorId);
    const create = await cliWith(bare, 'connectors', 'create', '--org', 'cli-org', '--type', 'payments', '--name', 'n', '--credentials', '{"api_key":"k"}');
    expect(create.code).toBe(1);
    expect(create.stderr).toContain('CREDENTIALS_KEY');
  });
});
