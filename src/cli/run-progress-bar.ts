/**
 * How `--wait` shows a run: on a terminal, a live bar drawn by cli-progress (records against the
 * expected total, pages, rate, ETA) or, while no total is known, a live line with the same counts;
 * elsewhere (a pipe, a log file) one plain line a second, so logs never fill with redraws.
 */
import { SingleBar } from 'cli-progress';
import type { SyncRunRow } from '../store/schema.js';

/** What the run is expected to read: a count, and where it came from. */
export interface ExpectedTotal {
  readonly records: number;
  readonly source: string;
}

/** Shows one run's progress until `finish`; the expected total may become known on the way. */
export interface RunProgressView {
  update(run: SyncRunRow, expected: ExpectedTotal | null): void;
  finish(run: SyncRunRow, expected: ExpectedTotal | null): void;
}

const BAR = 'run {run} {entity} {bar} {percentage}% | {value}/{total} records ({source}) | {pages} pages | {rate} rec/s | ETA {eta_formatted}';
const LINE = 'run {run} {entity} {status}: {value} records | {pages} pages | {rate} rec/s | {duration_formatted}';

function payload(run: SyncRunRow, startedMs: number, source: string) {
  const secs = Math.max(0.001, (Date.now() - startedMs) / 1000);
  return { run: run.id, entity: run.entity, status: run.status, pages: run.pages, rate: Math.round(Number(run.seen) / secs), source };
}

/** The plain line of a non-terminal: the same counts, no control characters. */
export function plainLine(run: SyncRunRow, startedMs: number, expected: ExpectedTotal | null): string {
  const p = payload(run, startedMs, expected?.source ?? '');
  const of = expected === null ? '' : ` of ~${expected.records}`;
  return `run ${p.run} ${p.entity} ${p.status}: ${Number(run.seen)}${of} records, ${p.pages} pages, ${p.rate} rec/s`;
}

function newBar(out: NodeJS.WritableStream, withTotal: boolean): SingleBar {
  // Enough samples for a steady ETA at the poll rate (5 a second).
  return new SingleBar({ stream: out, format: withTotal ? BAR : LINE, hideCursor: true, barsize: 30, etaBuffer: 50, fps: 5, clearOnComplete: false, stopOnComplete: false, barCompleteChar: '█', barIncompleteChar: '░' });
}

function terminalView(out: NodeJS.WritableStream): RunProgressView {
  const started = Date.now();
  let bar: { bar: SingleBar; withTotal: boolean } | null = null;
  const show = (run: SyncRunRow, expected: ExpectedTotal | null): void => {
    const seen = Number(run.seen);
    // A total learnt after the first page (the runtime reports it) turns the line into a bar.
    if (bar !== null && bar.withTotal !== (expected !== null)) (bar.bar.stop(), (bar = null));
    // The previous count is an estimate: an entity that grew must not show past 100 %.
    const total = expected === null ? Math.max(1, seen) : Math.max(expected.records, seen);
    const data = payload(run, started, expected?.source ?? '');
    if (bar === null) {
      bar = { bar: newBar(out, expected !== null), withTotal: expected !== null };
      bar.bar.start(total, seen, data);
    }
    bar.bar.setTotal(total);
    bar.bar.update(seen, data);
  };
  return {
    update: show,
    finish: (run, expected) => {
      show(run, expected);
      bar?.bar.stop();
    },
  };
}

function plainView(out: NodeJS.WritableStream): RunProgressView {
  const started = Date.now();
  let last = 0;
  return {
    update: (run, expected) => {
      if (Date.now() - last < 1000) return;
      last = Date.now();
      out.write(`${plainLine(run, started, expected)}\n`);
    },
    finish: (run, expected) => void out.write(`${plainLine(run, started, expected)}\n`),
  };
}

/** A bar on a TTY, plain lines elsewhere. */
export function runProgressView(out: NodeJS.WritableStream & { isTTY?: boolean }): RunProgressView {
  return out.isTTY === true ? terminalView(out) : plainView(out);
}
