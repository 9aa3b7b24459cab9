/** The bench's helper processes (bench/lib/*-process.ts): TypeScript run through tsx, driven over IPC. */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { NODE_FLAGS } from '../../src/cli/node-flags.js';

/**
 * Forks `bench/lib/<name>.ts`; `syncdexFlags`: with the V8 flags every syncdex process runs with
 * (it stands in for one). BENCH_CHILD_ARGS (e.g. `--cpu-prof`) are added to every child's flags.
 */
export function forkChild(name: string, syncdexFlags: boolean): ChildProcess {
  const extra = (process.env.BENCH_CHILD_ARGS ?? '').split(' ').filter((a) => a !== '');
  const execArgv = [...(syncdexFlags ? NODE_FLAGS : []), ...extra, '--import', 'tsx'];
  return fork(fileURLToPath(new URL(`./${name}.ts`, import.meta.url)), { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}
