/** Operator commands that act on the store directly: tokens, sync, search. */
import { replicatedEntities } from '../../app/connector-service.js';
import { buildDeps, type Deps } from '../../app/deps.js';
import { loadConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import { runSearch } from '../../search/search-service.js';
import { findConnector } from '../../store/connectors-repo.js';
import { createDb } from '../../store/db.js';
import { createToken, ensureOrganization } from '../../store/tokens-repo.js';
import { requestSync } from '../../worker/request-sync.js';
import { int, jsonFlag, output, parse, positional, str } from '../args.js';
import { waitForRun } from '../wait-run.js';
import type { SyncRunRow } from '../../store/schema.js';

async function withDeps<T>(fn: (deps: Deps) => Promise<T>): Promise<T> {
  const deps = buildDeps(loadConfig());
  try {
    return await fn(deps);
  } finally {
    await deps.close();
  }
}

export async function tokensCommand(argv: string[]): Promise<number> {
  const p = parse(argv, { org: { type: 'string' }, admin: { type: 'boolean' }, label: { type: 'string' } });
  if (p.positionals[0] !== 'create') throw new AppError('invalid_request', 'usage: syncdex tokens create --org O [--admin] [--json]');
  const org = str(p, 'org');
  if (org === undefined || org === '') throw new AppError('invalid_request', '--org is required', { path: 'org' });
  const url = loadConfig().databaseUrl;
  if (url === undefined) throw new AppError('config_invalid', 'DATABASE_URL is required', { path: 'DATABASE_URL' });
  const { db } = createDb(url, 1);
  try {
    const token = await createToken(db, await ensureOrganization(db, org), { admin: p.values.admin === true, label: str(p, 'label') ?? '' });
    output(p.values.json as boolean | undefined, { token }, () => `${token}\n(shown once; store it now)`);
  } finally {
    await db.destroy();
  }
  return 0;
}

export async function syncCommand(argv: string[]): Promise<number> {
  const p = parse(argv, { entity: { type: 'string' }, mode: { type: 'string' }, wait: { type: 'boolean' } });
  const id = positional(p.positionals, 0, 'connector');
  const mode = str(p, 'mode') ?? 'auto';
  if (!['auto', 'full', 'incremental'].includes(mode)) throw new AppError('invalid_request', '--mode must be full, incremental or auto', { path: 'mode' });
  return withDeps(async (deps) => {
    const connector = await findConnector(deps.db, id);
    if (connector === null) throw new AppError('not_found', `connector ${id} not found`, { path: 'connector' });
    const entities = str(p, 'entity') === undefined ? replicatedEntities(connector) : [str(p, 'entity') as string];
    let failed = 0;
    const results: SyncRunRow[] = [];
    for (const entity of entities) {
      const run = await requestSync(deps, connector, { entity, trigger: 'manual', mode: mode as 'auto' });
      const final = p.values.wait === true ? await waitForRun(deps.db, run.id, { quiet: p.values.json === true }) : run;
      if (final.status === 'failed') failed++;
      results.push(final);
      if (final.status === 'failed') process.stderr.write(`run ${final.id} failed: ${final.error?.message ?? 'unknown error'}\n`);
    }
    output(p.values.json as boolean | undefined, results, () => results.map((r) => `run ${r.id} ${r.entity} ${r.mode} ${r.status}`).join('\n'));
    return failed > 0 ? 1 : 0;
  });
}

export async function searchCommand(argv: string[]): Promise<number> {
  const p = parse(argv, { filter: { type: 'string' }, sort: { type: 'string' }, limit: { type: 'string' }, cursor: { type: 'string' }, fields: { type: 'string' } });
  const id = positional(p.positionals, 0, 'connector');
  const entity = positional(p.positionals, 1, 'entity');
  const query: Record<string, unknown> = {};
  if (str(p, 'filter') !== undefined) query.filter = jsonFlag(str(p, 'filter'), 'filter');
  if (str(p, 'sort') !== undefined) query.sort = jsonFlag(str(p, 'sort'), 'sort');
  const params: Record<string, unknown> = { query };
  if (int(p, 'limit') !== undefined) params.limit = int(p, 'limit');
  if (str(p, 'cursor') !== undefined) params.cursor = str(p, 'cursor');
  if (str(p, 'fields') !== undefined) params.fields = jsonFlag(str(p, 'fields'), 'fields');
  return withDeps(async (deps) => {
    const connector = await findConnector(deps.db, id);
    if (connector === null) throw new AppError('not_found', `connector ${id} not found`, { path: 'connector' });
    const res = await runSearch(deps, connector, entity, params);
    output(p.values.json as boolean | undefined, res, () =>
      [...res.hits.map((h) => `${h.id}  score=${h.score}  ${JSON.stringify(h.data)}`), `${res.hits.length} hits in ${res.took_ms} ms; next_cursor: ${res.next_cursor ?? 'null'}`].join('\n'),
    );
    return 0;
  });
}
