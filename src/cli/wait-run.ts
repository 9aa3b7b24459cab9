/** Follows a run until it ends, drawing progress (a bar on a terminal, plain lines otherwise). */
import type { Kysely } from 'kysely';
import type { DB } from '../store/db.js';
import { getRun } from '../store/runs-repo.js';
import type { SyncRunRow } from '../store/schema.js';

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

function line(run: SyncRunRow, startedMs: number): string {
  const secs = Math.max(0.001, (Date.now() - startedMs) / 1000);
  const seen = Number(run.seen);
  return `run ${run.id} ${run.entity} ${run.status}: ${seen} records, ${run.pages} pages, ${Math.round(seen / secs)} rec/s`;
}

/** Polls the run row; resolves with the final row. */
export async function waitForRun(db: Kysely<DB>, runId: string, opts: { quiet?: boolean; out?: NodeJS.WriteStream; intervalMs?: number } = {}): Promise<SyncRunRow> {
  const out = opts.out ?? process.stderr;
  const tty = out.isTTY === true;
  const started = Date.now();
  let lastPrinted = 0;
  for (;;) {
    const run = await getRun(db, runId);
    if (run === null) throw new Error(`run ${runId} vanished`);
    const done = TERMINAL.has(run.status);
    if (opts.quiet !== true && (tty || done || Date.now() - lastPrinted >= 1000)) {
      const spinner = '|/-\\'[Math.floor(Date.now() / 250) % 4] ?? '|';
      out.write(tty ? `\r\x1b[2K${done ? '✔' : spinner} ${line(run, started)}${done ? '\n' : ''}` : `${line(run, started)}\n`);
      lastPrinted = Date.now();
    }
    if (done) return run;
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 200));
  }
}

/** Says on stderr why a run did not succeed; returns the exit status (1 when failed or cancelled). */
export function reportRunEnd(run: SyncRunRow): number {
  if (run.status === 'failed') process.stderr.write(`run ${run.id} failed: ${run.error?.message ?? 'unknown error'}\n`);
  if (run.status === 'cancelled') process.stderr.write(`run ${run.id} was cancelled${run.error === null ? '' : `: ${run.error.message}`}\n`);
  return run.status === 'failed' || run.status === 'cancelled' ? 1 : 0;
}

