/**
 * `demo --serve` runs in a session of its own. A terminal's Ctrl-C goes to every process of the
 * foreground process group, the embedded Postgres included: it would shut down at once, under
 * the API and worker still using it (their connections die with 57P01 mid-shutdown) and before
 * the stack could stop it and remove its data. So the command the user started only supervises:
 * it starts the demo again as a child in a new session (out of the terminal's reach), passes the
 * first Ctrl-C on as one SIGTERM, and exits with the child's status. The child also stops when
 * its supervisor dies (the IPC channel closes), so it never outlives it.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { NODE_FLAGS } from '../node-flags.js';

const SESSION_ENV = 'SYNCDEX_DEMO_SESSION';
const BIN = fileURLToPath(new URL('../../../bin/syncdex.mjs', import.meta.url));
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** A repeated signal this soon after the first is the same Ctrl-C relayed again (npm, tsx). */
export const ECHO_MS = 2000;

/** True in the child that runs the served demo. */
export function inDemoSession(): boolean {
  return process.env[SESSION_ENV] === '1';
}

/** Runs `demo <argv>` in a new session; resolves with its exit status. */
export function superviseDemo(argv: string[]): Promise<number> {
  const child = spawn(process.execPath, [...NODE_FLAGS, BIN, 'demo', ...argv], { detached: true, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, [SESSION_ENV]: '1' } });
  let first: number | null = null;
  // The first signal asks for a clean stop; Ctrl-C pressed again later ends the demo at once.
  const onSignal = (): void => {
    const now = Date.now();
    if (first === null) (first = now), child.kill('SIGTERM');
    else if (now - first > ECHO_MS) child.kill('SIGINT');
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  return new Promise((resolve) => {
    child.once('error', () => resolve(1));
    child.once('exit', (code, signal) => {
      for (const s of SIGNALS) process.removeListener(s, onSignal);
      resolve(code ?? 128 + (signal === null ? 1 : constants.signals[signal]));
    });
  });
}
