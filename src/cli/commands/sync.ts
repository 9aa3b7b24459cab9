/** `syncdex sync <connector> [--entity E] [--mode full|incremental|auto] [--wait]`. */
import { triggerSync } from '../../app/operations.js';
import { AppError } from '../../errors.js';
import type { RunMode, SyncRunRow } from '../../store/schema.js';
import { output, parse, positional, str } from '../args.js';
import { reportRunEnd, waitForRun } from '../wait-run.js';
import { withDeps } from './context.js';

export async function syncCommand(argv: string[]): Promise<number> {
  const p = parse(argv, { entity: { type: 'string' }, mode: { type: 'string' }, wait: { type: 'boolean' } });
  const id = positional(p.positionals, 0, 'connector');
  const mode = str(p, 'mode') ?? 'auto';
  if (!['auto', 'full', 'incremental'].includes(mode)) throw new AppError('invalid_request', '--mode must be full, incremental or auto', { path: 'mode' });
  const entity = str(p, 'entity');
  return withDeps(async (deps) => {
    const runs = await triggerSync(deps, id, { mode: mode as RunMode | 'auto', ...(entity === undefined ? {} : { entity }) });
    const results: SyncRunRow[] = [];
    for (const run of runs) {
      const final = p.values.wait === true ? await waitForRun(deps.db, run.id, { quiet: p.values.json === true }) : run;
      results.push(final);
    }
    output(p.values.json as boolean | undefined, results, () => results.map((r) => `run ${r.id} ${r.entity} ${r.mode} ${r.status}`).join('\n'));
    // Reported after the listing, one line per run that did not succeed.
    return Math.max(0, ...results.map(reportRunEnd));
  });
}
