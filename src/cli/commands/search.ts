/** `syncdex search <connector> <entity> --filter JSON [--sort JSON] [--limit N] [--cursor C] [--fields JSON]`. */
import { unstorableAt } from '../../api/storable-text.js';
import { assertReplicated } from '../../app/connector-service.js';
import { AppError } from '../../errors.js';
import { runSearch } from '../../search/search-service.js';
import { findConnector } from '../../store/connectors-repo.js';
import { int, jsonFlag, output, parse, positional, str } from '../args.js';
import { withDeps } from './context.js';

export async function searchCommand(argv: string[]): Promise<number> {
  const p = parse(argv, { filter: { type: 'string' }, sort: { type: 'string' }, limit: { type: 'string' }, cursor: { type: 'string' }, fields: { type: 'string' } });
  const id = positional(p.positionals, 0, 'connector');
  const entity = positional(p.positionals, 1, 'entity');
  const query: Record<string, unknown> = {};
  if (str(p, 'filter') !== undefined) query.filter = jsonFlag(str(p, 'filter'), 'filter');
  if (str(p, 'sort') !== undefined) query.sort = jsonFlag(str(p, 'sort'), 'sort');
  const params: Record<string, unknown> = { query };
  if (int(p, 'limit', { max: 10_000 }) !== undefined) params.limit = int(p, 'limit', { max: 10_000 });
  if (str(p, 'cursor') !== undefined) params.cursor = str(p, 'cursor');
  if (str(p, 'fields') !== undefined) params.fields = jsonFlag(str(p, 'fields'), 'fields');
  return withDeps(async (deps) => {
    const connector = await findConnector(deps.db, id);
    if (connector === null) throw new AppError('not_found', `connector ${id} not found`, { path: 'connector' });
    // The checks the API makes before a search, so both answer alike.
    assertReplicated(connector, entity);
    const flaw = unstorableAt(params);
    if (flaw !== null) throw new AppError('invalid_query', flaw.why, { path: flaw.path });
    const res = await runSearch(deps, connector, entity, params);
    output(p.values.json as boolean | undefined, res, () =>
      [...res.hits.map((h) => `${h.id}  score=${h.score}  ${JSON.stringify(h.data)}`), `${res.hits.length} hits in ${res.took_ms} ms; next_cursor: ${res.next_cursor ?? 'null'}`].join('\n'),
    );
    return 0;
  });
}
