/**
 * `syncdex connectors create|list|show`: the store directly, as an operator (no token). `create`
 * validates exactly like the HTTP API and queues the first syncs.
 */
import { createConnector, parseCreateConnector, viewConnector, type ConnectorView } from '../../app/connector-service.js';
import { AppError } from '../../errors.js';
import { findConnector, listConnectors } from '../../store/connectors-repo.js';
import { ensureOrganization } from '../../store/tokens-repo.js';
import { int, jsonFlag, output, parse, positional, readFlagFile, str, type Parsed } from '../args.js';
import { encodeConnectorsCursor, parseConnectorsPage } from '../../api/params.js';
import { withDeps } from './context.js';

const USAGE = `usage: syncdex connectors create --org O --type T --name N (--credentials-file PATH|- | --credentials JSON | --oauth-secret-id ID) [--config JSON] [--user U]
       syncdex connectors list [--org O] [--limit N] [--cursor C]
       syncdex connectors show <connector>`;

function describe(v: ConnectorView): string {
  const head = `${v.id}  ${v.name}  ${v.connector_type}  ${v.status}  created ${v.created_at}`;
  return [head, ...v.entities.map((e) => `  ${e.entity.padEnd(24)} ${e.status.padEnd(12)} ${String(e.record_count).padStart(8)} records  last synced ${e.last_synced_at ?? 'never'}${e.last_error === null ? '' : `  error: ${e.last_error}`}`)].join('\n');
}

/** `--credentials-file` (a path, or `-` for stdin) or the inline `--credentials`, never both. */
async function credentialsOf(p: Parsed): Promise<unknown> {
  const file = str(p, 'credentials-file');
  if (file === undefined) return jsonFlag(str(p, 'credentials'), 'credentials');
  if (str(p, 'credentials') !== undefined) throw new AppError('invalid_request', 'give --credentials or --credentials-file, not both', { path: 'credentials-file' });
  return jsonFlag((await readFlagFile(file, 'credentials-file')).trim(), 'credentials-file');
}

async function create(p: Parsed): Promise<number> {
  const org = str(p, 'org');
  if (org === undefined || org.trim() === '') throw new AppError('invalid_request', '--org is required', { path: 'org' });
  const body: Record<string, unknown> = {
    external_user_id: str(p, 'user') ?? 'cli',
    connector_type: str(p, 'type'),
    name: str(p, 'name'),
    replication_config: jsonFlag(str(p, 'config'), 'config') ?? {},
  };
  const credentials = await credentialsOf(p);
  if (credentials !== undefined) body.credentials = credentials;
  if (str(p, 'oauth-secret-id') !== undefined) body.server_side_oauth_secret_id = str(p, 'oauth-secret-id');
  const input = parseCreateConnector(body);
  return withDeps(async (deps) => {
    const organizationId = await ensureOrganization(deps.db, org);
    const view = await createConnector(deps, { organizationId, tokenId: 'cli', isAdmin: true }, input);
    output(p.values.json as boolean | undefined, view, () => describe(view));
    return 0;
  });
}

export async function connectorsCommand(argv: string[]): Promise<number> {
  const p = parse(argv, { org: { type: 'string' }, type: { type: 'string' }, name: { type: 'string' }, credentials: { type: 'string' }, 'credentials-file': { type: 'string' }, 'oauth-secret-id': { type: 'string' }, config: { type: 'string' }, user: { type: 'string' }, limit: { type: 'string' }, cursor: { type: 'string' } });
  const sub = p.positionals[0];
  if (sub === 'create') return create(p);
  if (sub !== 'list' && sub !== 'show') throw new AppError('invalid_request', USAGE);
  return withDeps(async (deps) => {
    if (sub === 'show') {
      const id = positional(p.positionals, 1, 'connector');
      const c = await findConnector(deps.db, id);
      if (c === null) throw new AppError('not_found', `connector ${id} not found`, { path: 'connector' });
      const view = await viewConnector(deps, c);
      output(p.values.json as boolean | undefined, view, () => describe(view));
      return 0;
    }
    const org = str(p, 'org');
    const orgId = org === undefined ? undefined : (await deps.db.selectFrom('organizations').select('id').where('name', '=', org).executeTakeFirst())?.id;
    if (org !== undefined && orgId === undefined) throw new AppError('not_found', `organization ${org} not found`, { path: 'org' });
    const { limit, after } = parseConnectorsPage({ limit: int(p, 'limit'), cursor: str(p, 'cursor') }, 100);
    const page = await listConnectors(deps.db, { organizationId: orgId, limit, after });
    const views = await Promise.all(page.connectors.map((c) => viewConnector(deps, c)));
    output(p.values.json as boolean | undefined, views, () => (views.length === 0 ? 'no connectors' : views.map(describe).join('\n')));
    // On stderr, so --json output stays one array a script can parse.
    if (page.next !== null) process.stderr.write(`more connectors: --cursor ${encodeConnectorsCursor(page.next)}\n`);
    return 0;
  });
}
