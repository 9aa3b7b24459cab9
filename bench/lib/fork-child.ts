/** The bench's helper processes (bench/lib/*-process.ts): TypeScript run through tsx, driven over IPC. */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { NODE_FLAGS, WORKER_V8_FLAGS } from '../../src/cli/node-flags.js';

/** Which syncdex process a child stands in for, and so which V8 flags it runs with. */
export type StandIn = 'none' | 'syncdex' | 'worker';

/** The V8 flags of a child standing in for `standIn`, before BENCH_CHILD_ARGS. */
export function standInFlags(standIn: StandIn): readonly string[] {
  if (standIn === 'none') return [];
  // A worker's floors run as the worker does: without its flag, the forward floor read 51-57 µs
  // per record against 35-46 with it, and the bare writer 120 against 77-82 (bench/README.md, session 44).
  return standIn === 'worker' ? [...NODE_FLAGS, ...WORKER_V8_FLAGS] : NODE_FLAGS;
}

/**
 * Forks `bench/lib/<name>.ts` with the V8 flags of the process it stands in for. BENCH_CHILD_ARGS
 * (e.g. `--cpu-prof`) are added to every child's flags.
 */
export function forkChild(name: string, standIn: StandIn): ChildProcess {
  const extra = (process.env.BENCH_CHILD_ARGS ?? '').split(' ').filter((a) => a !== '');
  const execArgv = [...standInFlags(standIn), ...extra, '--import', 'tsx'];
  return fork(fileURLToPath(new URL(`./${name}.ts`, import.meta.url)), { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}
