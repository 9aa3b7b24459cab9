/** A private, persistent redis-server that a test can restart on the same port and data dir. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitForPort } from '../../../src/services/free-port.js';

/** Path of redis-server, or null when it is not installed. */
export function redisServerBin(): string | null {
  const which = spawnSync('which', ['redis-server'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : null;
}

export interface RestartableRedis {
  readonly url: string;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts redis with an append-only file (fsync always), as production should run it. */
export async function startRestartableRedis(bin: string): Promise<RestartableRedis> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncdex-redis-aof-'));
  const port = await freePort();
  let child: ChildProcess;
  const start = async (): Promise<void> => {
    child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--maxmemory-policy', 'noeviction'], { stdio: 'ignore' });
    await waitForPort(port);
  };
  const halt = async (): Promise<void> => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    restart: async () => {
      await halt();
      await start();
    },
    stop: async () => {
      await halt();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
