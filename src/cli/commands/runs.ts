/** `syncdex runs [--status S] [--connector C] [--entity E] [--since T] [--until T] [--limit N] [--cursor C]`, `runs show <run>`, `replay <run> [--from-start] [--wait]`. */
import { replayRun } from '../../app/operations.js';
import { runDetail, runSummary } from '../../api/views.js';
import { runsPage } from '../../api/runs-query.js';
import { AppError } from '../../errors.js';
import { findRunRow, replayChain } from '../../store/admin-queries.js';
import { int, output, parse, positional, str } from '../args.js';
import { reportRunEnd, waitForRun } from '../wait-run.js';
import { withDb, withDeps } from './context.js';

type Summary = ReturnType<typeof runSummary>;

function line(r: Summary): string {
  const err = r.error === null ? '' : `  ${r.error.code}: ${r.error.message}`;
  const who = `${r.connector_name ?? r.connector_id}/${r.entity}`;
  const dur = r.timings.duration_ms === null ? '-' : `${(r.timings.duration_ms / 1000).toFixed(1)}s`;
  return `#${r.id.padEnd(6)} ${r.status.padEnd(10)} ${who.padEnd(36)} ${`${r.trigger}/${r.mode}`.padEnd(20)} ${String(r.counters.seen).padStart(8)} seen  ${dur.padStart(8)}  ${r.timings.queued_at ?? ''}${r.replay_of === null ? '' : `  replay of #${r.replay_of}`}${err}`;
}

async function show(id: string, json: boolean | undefined): Promise<number> {
  return withDb(async (db) => {
    const run = await findRunRow(db, id);
    if (run === null) throw new AppError('not_found', `run ${id} not found`, { path: 'run' });
    const detail = runDetail(run, await replayChain(db, run.id));
    output(json, detail, () => [line(detail), `checkpoint: ${JSON.stringify(detail.checkpoint)}`, `replays: ${detail.replay_chain.replays.map((r) => `#${r.id} ${r.status}`).join(', ') || 'none'}`, `replay of: ${detail.replay_chain.ancestors.map((r) => `#${r.id}`).join(' ← ') || 'none'}`].join('\n'));
    return 0;
  });
}

export async function runsCommand(argv: string[]): Promise<number> {
  const p = parse(argv, { status: { type: 'string' }, connector: { type: 'string' }, entity: { type: 'string' }, since: { type: 'string' }, until: { type: 'string' }, limit: { type: 'string' }, cursor: { type: 'string' } });
  const json = p.values.json as boolean | undefined;
  if (p.positionals[0] === 'show') return show(positional(p.positionals, 1, 'run'), json);
  if (p.positionals.length > 0) throw new AppError('invalid_request', `unexpected argument ${p.positionals[0]}; usage: syncdex runs [--status S] [--connector C] [--entity E] [--limit N] [--cursor C] | runs show <run>`);
  const query = { connector_id: str(p, 'connector'), entity: str(p, 'entity'), status: str(p, 'status'), since: str(p, 'since'), until: str(p, 'until'), limit: int(p, 'limit', { max: 500 }), cursor: str(p, 'cursor') };
  return withDb(async (db) => {
    const page = await runsPage(db, query);
    const runs = page.runs.map((r) => runSummary(r));
    output(json, runs, () => (runs.length === 0 ? 'no runs' : runs.map(line).join('\n')));
    // On stderr, so `--json` output stays one array a script can read.
    if (page.nextCursor !== null) process.stderr.write(`more runs: --cursor ${page.nextCursor}\n`);
    return 0;
  });
}

export async function replayCommand(argv: string[]): Promise<number> {
  const p = parse(argv, { 'from-start': { type: 'boolean' }, wait: { type: 'boolean' } });
  const id = positional(p.positionals, 0, 'run');
  return withDeps(async (deps) => {
    const run = await replayRun(deps, id, { fromStart: p.values['from-start'] === true });
    const final = p.values.wait === true ? await waitForRun(deps.db, run.id, { quiet: p.values.json === true }) : run;
    output(p.values.json as boolean | undefined, runSummary(final), () => `run ${final.id} replays #${id} (${run.checkpoint === null ? 'from the start' : 'from its checkpoint'}): ${final.status}`);
    return reportRunEnd(final);
  });
}
