/** A `syncdex worker` in its own process, so tests can SIGKILL or SIGTERM it like production does. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_FLAGS } from '../../../src/cli/node-flags.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/syncdex.mjs');

/** A worker child process and ways to stop it. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  readonly output: string[];
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

/**
 * Spawns `syncdex worker` with the node flags its shebang and the Dockerfile give it;
 * WORKER_NODE_ARGS (e.g. `--cpu-prof`) are added to them.
 */
export function spawnWorker(env: Record<string, string>, concurrency = 2): WorkerProcess {
  const nodeArgs = [...NODE_FLAGS, ...(process.env.WORKER_NODE_ARGS ?? '').split(' ').filter((a) => a !== '')];
  const child = spawn(process.execPath, [...nodeArgs, BIN, 'worker', '--concurrency', String(concurrency)], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (d) => output.push(String(d)));
  child.stderr?.on('data', (d) => output.push(String(d)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output,
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
