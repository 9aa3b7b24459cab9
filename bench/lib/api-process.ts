/**
 * The HTTP API as operators run it: `syncdex api` in a process of its own, with syncdex's V8
 * flags. The bench's own process holds what the load left behind (a million records' worth of
 * memo and garbage); an API sharing that heap and event loop would pay for it in collections.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { NODE_FLAGS } from '../../src/cli/node-flags.js';
import { freePort } from '../../src/services/free-port.js';

/** A running `syncdex api` child and the URL it serves. */
export interface ApiProcess {
  readonly base: string;
  stop(): Promise<void>;
}

const CLI = fileURLToPath(new URL('../../bin/syncdex.mjs', import.meta.url));

async function untilReady(base: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`syncdex api exited (${child.exitCode}) before it was ready`);
    try {
      const res = await fetch(`${base}/readyz`);
      if (res.ok) return;
      last = `${res.status} ${await res.text()}`;
    } catch (e) {
      last = e instanceof Error ? e.message : String(e);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`syncdex api at ${base} not ready after ${timeoutMs / 1000} s: ${last}`);
}

/** Starts `syncdex api` with `env` (its whole configuration) and waits until /readyz answers 200; `flags`: more node flags (a profiler). */
export async function startApiProcess(env: Record<string, string>, flags: readonly string[] = []): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...NODE_FLAGS, ...flags, CLI, 'api'], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, PORT: String(port) }, stdio: ['ignore', 'inherit', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await untilReady(base, child, 60_000);
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  return {
    base,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
