/**
 * A single-node OpenSearch on this machine without Docker: local-opensearch/ is a Maven project
 * whose launcher runs OpenSearch 2.19 from Maven Central artifacts. Built on first use (Maven
 * caches the artifacts in ~/.m2), started on free loopback ports in a temp dir, stopped by pid.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';
import { dockerAvailable, type ProvidedService, type Provision } from './local-services.js';

const PROJECT = fileURLToPath(new URL('../../local-opensearch/', import.meta.url));
const CLASSPATH_FILE = path.join(PROJECT, 'target', 'classpath.txt');
const LAUNCHER_CLASS = path.join(PROJECT, 'target', 'classes', 'dev', 'syncdex', 'localopensearch', 'LocalNode.class');
const STARTED = /syncdex-local-opensearch started (http:\/\/\S+)/;

/** Options of the local node. */
export interface LocalOpenSearchOptions {
  /** JVM heap in MB (min = max); 768 fits the tests, the bench and the demo on one 2-core machine. */
  readonly heapMb?: number;
  /** Where the node's console output goes besides its temp dir (e.g. to show it on failure). */
  readonly onLog?: (line: string) => void;
  /** How long to wait for the build and the start, each. */
  readonly timeoutMs?: number;
  /** Data and logs here, kept by stop() (a restart on the same data); default: a temp dir, removed. */
  readonly home?: string;
  /** Fixed HTTP port (a restart answering at the same URL); default: a free one. */
  readonly httpPort?: number;
}

/** A node of this process: stop() ends it cleanly, kill() like a crash (SIGKILL). */
export interface LocalOpenSearch extends ProvidedService {
  readonly home: string;
  readonly httpPort: number;
  kill(): Promise<void>;
}

function which(bin: string): string | null {
  const r = spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() !== '' ? r.stdout.trim() : null;
}

/** `java` from JAVA_HOME when it has one, else from PATH. */
function findJava(): string | null {
  const home = process.env.JAVA_HOME;
  if (home !== undefined && home !== '' && fs.existsSync(path.join(home, 'bin', 'java'))) return path.join(home, 'bin', 'java');
  return which('java');
}

/** Why the local node cannot start here, or null when Java and the launcher (or Maven to build it) are present. */
export function localOpenSearchMissing(): string | null {
  if (findJava() === null) return 'Java is not installed (apt-get install -y openjdk-17-jre-headless, or set JAVA_HOME)';
  if (!launcherBuilt() && which('mvn') === null) return 'Maven is not installed to build local-opensearch/ (apt-get install -y maven)';
  return null;
}

function newest(paths: readonly string[]): number {
  return Math.max(...paths.map((p) => fs.statSync(p).mtimeMs));
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? filesUnder(path.join(dir, d.name)) : [path.join(dir, d.name)]));
}

function sources(): string[] {
  return [path.join(PROJECT, 'pom.xml'), ...filesUnder(path.join(PROJECT, 'src'))];
}

function launcherBuilt(): boolean {
  if (!fs.existsSync(CLASSPATH_FILE) || !fs.existsSync(LAUNCHER_CLASS)) return false;
  return Math.min(fs.statSync(CLASSPATH_FILE).mtimeMs, fs.statSync(LAUNCHER_CLASS).mtimeMs) >= newest(sources());
}

/**
 * Builds the launcher when it is missing or older than its sources. Processes starting at once
 * (tests and a bench) take turns on a lock directory; a lock older than the timeout is a dead build's.
 */
export async function buildLocalOpenSearch(timeoutMs = 600_000): Promise<void> {
  if (launcherBuilt()) return;
  const lock = path.join(PROJECT, 'target.lock');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      if (launcherBuilt()) return;
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > timeoutMs) fs.rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`local OpenSearch: another build holds ${lock}`);
      await sleep(500);
    }
  }
  try {
    const mvn = which('mvn');
    if (mvn === null) throw new Error('local OpenSearch: Maven is not installed (apt-get install -y maven)');
    const r = spawnSync(mvn, ['-q', '-B', '-f', path.join(PROJECT, 'pom.xml'), 'package'], { encoding: 'utf8', timeout: timeoutMs });
    if (r.status !== 0) throw new Error(`local OpenSearch: mvn package failed (${r.status ?? r.signal}):\n${(r.stdout + r.stderr).slice(-4000)}`);
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** Nodes started by this process and not yet stopped: killed if the process exits first. */
const running = new Set<ChildProcess>();
function killRunning(): void {
  for (const child of running) child.kill('SIGKILL');
}

function waitStarted(child: ChildProcess, logFile: string, timeoutMs: number, onLog?: (line: string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const log = fs.createWriteStream(logFile);
    let buffered = '';
    const timer = setTimeout(() => fail(`did not start within ${timeoutMs} ms`), timeoutMs);
    const fail = (why: string): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      const tail = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-3000) : '';
      reject(new Error(`local OpenSearch ${why}; its output (${logFile}):\n${tail}`));
    };
    const onData = (chunk: Buffer): void => {
      log.write(chunk);
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        onLog?.(line);
        const m = STARTED.exec(line);
        if (m?.[1] !== undefined) clearTimeout(timer), resolve(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => fail(`exited (${code ?? signal}) before it started`));
    child.once('close', () => log.end());
  });
}

/** Starts one node on loopback ports; stop() ends it by pid and removes its temp dir. */
export async function startLocalOpenSearch(opts: LocalOpenSearchOptions = {}): Promise<LocalOpenSearch> {
  const java = findJava();
  if (java === null) throw new Error('local OpenSearch: Java is not installed (apt-get install -y openjdk-17-jre-headless)');
  const timeoutMs = opts.timeoutMs ?? 180_000;
  await buildLocalOpenSearch();
  const home = opts.home ?? fs.mkdtempSync(path.join(os.tmpdir(), 'syncdex-opensearch-'));
  const temporary = opts.home === undefined;
  fs.mkdirSync(path.join(home, 'tmp'), { recursive: true });
  const [httpPort, transportPort] = [opts.httpPort ?? (await freePort()), await freePort()];
  const heap = `${opts.heapMb ?? 768}m`;
  const classpath = `${path.join(PROJECT, 'target', 'classes')}${path.delimiter}${fs.readFileSync(CLASSPATH_FILE, 'utf8').trim()}`;
  const args = [`-Xms${heap}`, `-Xmx${heap}`, '-XX:+UseG1GC', '-Djava.awt.headless=true', '-Dfile.encoding=UTF-8', '-Dlog4j2.formatMsgNoLookups=true', `-Djava.io.tmpdir=${path.join(home, 'tmp')}`, '-cp', classpath, 'dev.syncdex.localopensearch.LocalNode', home, String(httpPort), String(transportPort), '--exit-on-stdin-close'];
  const child = spawn(java, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  running.add(child);
  if (running.size === 1) process.on('exit', killRunning);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const removeHome = (): void => void (temporary && fs.rmSync(home, { recursive: true, force: true }));
  try {
    const url = await waitStarted(child, path.join(home, 'console.log'), timeoutMs, opts.onLog);
    return {
      url,
      source: 'local',
      home,
      httpPort,
      stop: async () => (await endNode(child, exited, 'SIGTERM'), removeHome()),
      kill: () => endNode(child, exited, 'SIGKILL'),
    };
  } catch (e) {
    running.delete(child);
    removeHome();
    throw e;
  }
}

async function endNode(child: ChildProcess, exited: Promise<void>, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill(signal);
    const ended = await Promise.race([exited.then(() => true), sleep(30_000, false, { ref: false })]);
    if (!ended) child.kill('SIGKILL'), await exited;
  }
  running.delete(child);
  // Our end of its stdin is a handle of this process: left open, it keeps the process alive.
  child.stdin?.destroy();
}

async function startContainerOpenSearch(): Promise<ProvidedService> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const c = await new GenericContainer('opensearchproject/opensearch:2.19.2')
    .withEnvironment({ 'discovery.type': 'single-node', DISABLE_SECURITY_PLUGIN: 'true', DISABLE_INSTALL_DEMO_CONFIG: 'true', OPENSEARCH_JAVA_OPTS: '-Xms768m -Xmx768m' })
    .withExposedPorts(9200)
    .withWaitStrategy(Wait.forHttp('/_cluster/health?wait_for_status=yellow', 9200).forStatusCode(200))
    .withStartupTimeout(240_000)
    .start();
  return { url: `http://${c.getHost()}:${c.getMappedPort(9200)}`, source: 'testcontainers', stop: async () => void (await c.stop()) };
}

/**
 * OpenSearch: OPENSEARCH_URL, else a container when a Docker engine answers, else the local
 * node; `ok:false` names what is missing (Java, Maven).
 */
export async function provideOpenSearch(url: string | undefined, opts: LocalOpenSearchOptions = {}): Promise<Provision> {
  if (url !== undefined) return { ok: true, service: { url, source: 'env', stop: async () => undefined } };
  if (await dockerAvailable()) return { ok: true, service: await startContainerOpenSearch() };
  const missing = localOpenSearchMissing();
  if (missing !== null) return { ok: false, reason: `OpenSearch unavailable: OPENSEARCH_URL is unset, no Docker engine answers, and ${missing}` };
  return { ok: true, service: await startLocalOpenSearch(opts) };
}
