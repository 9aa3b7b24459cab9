/**
 * `syncdex demo`: the main job end to end on the embedded default — start services, create a
 * payments and an applicant-tracking connector through the API, sync them from the sandbox, run
 * one search of each kind and print hits and `took_ms`. `--search opensearch` searches with a
 * local OpenSearch node instead of Postgres: the hits must be the same. `--serve` keeps it all
 * running afterwards (demo-serve.ts).
 */
import { startEmbeddedStack, type EmbeddedStack } from '../../app/embedded-stack.js';
import { AppError } from '../../errors.js';
import { createLogger } from '../../logger.js';
import { searchTarget } from '../../search/target.js';
import { waitIndexCaughtUp } from '../../search/index-lag.js';
import { createToken, ensureOrganization } from '../../store/tokens-repo.js';
import { int, parse, str } from '../args.js';
import { waitForRun } from '../wait-run.js';
import { demoSearches, type DemoSearch } from './demo-searches.js';
import { serveUntilSignal, signalListeners } from './demo-serve.js';
import { inDemoSession, superviseDemo } from './demo-session.js';

type Json = Record<string, unknown>;
type Hit = { id: string; score: number; data: Json };

async function call(url: string, token: string, body: unknown): Promise<Json> {
  const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as Json;
  if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(json)}`);
  return json;
}

function brief(value: unknown): string {
  const s = typeof value === 'string' ? value : JSON.stringify(value);
  return s === undefined ? '-' : s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

function printHits(title: string, res: Json, show: readonly string[]): void {
  const hits = res.hits as Hit[];
  process.stdout.write(`\n▶ ${title}\n`);
  for (const h of hits) {
    const fields = show.map((f) => `${f}=${brief(f.split('.').reduce<unknown>((o, k) => (o as Json | undefined)?.[k], h.data))}`).join('  ');
    process.stdout.write(`  ${h.id}  score=${h.score}  ${fields}\n`);
  }
  process.stdout.write(`  ${hits.length} hits, took_ms=${String(res.took_ms)}, next_cursor=${res.next_cursor === null ? 'null' : `${String(res.next_cursor).slice(0, 16)}...`}\n`);
}

/** Creates a connector through the API and waits for its first runs. */
async function syncConnector(stack: EmbeddedStack, token: string, body: Json): Promise<string> {
  const connector = await call(`${stack.apiUrl}/api/v1/integrations/connectors`, token, { external_user_id: 'demo-user', ...body });
  const id = String(connector.id);
  const runs = await stack.deps.db.selectFrom('sync_runs').select('id').where('connector_id', '=', id).execute();
  for (const r of runs) {
    const final = await waitForRun(stack.deps.db, r.id, { out: process.stdout });
    if (final.status !== 'succeeded') throw new Error(`run ${final.id} ${final.status}: ${final.error?.message ?? ''}`);
  }
  return id;
}

/**
 * OpenSearch gets a run's last changes shipped right after the run commits, and shows them after
 * its refresh interval: wait for both, so the demo prints what the store holds.
 */
async function waitSearchable(stack: EmbeddedStack, connectorId: string, connectorType: string, entity: string): Promise<void> {
  if (!stack.deps.backend.shipsChanges) return;
  await waitIndexCaughtUp(stack.deps.db, stack.deps.backend, connectorId, searchTarget(connectorType, entity));
  await new Promise((r) => setTimeout(r, 1100));
}

async function runSearch(exec: (id: string) => string, ids: Record<string, string>, token: string, s: DemoSearch): Promise<void> {
  const url = exec(ids[s.entity] as string);
  const page = await call(url, token, { entity: s.entity, action: 'search', params: s.params });
  printHits(s.title, page, s.show);
  if (s.nextPage === true && page.next_cursor !== null) printHits('...next page via next_cursor', await call(url, token, { entity: s.entity, action: 'search', params: { ...s.params, cursor: page.next_cursor } }), s.show);
}

export async function demoCommand(argv: string[]): Promise<number> {
  const p = parse(argv, { customers: { type: 'string' }, search: { type: 'string' }, serve: { type: 'boolean' } });
  const serve = p.values.serve === true;
  if (serve && !inDemoSession()) return superviseDemo(argv);
  const customers = int(p, 'customers') ?? 2500;
  const search = str(p, 'search');
  if (search !== undefined && search !== 'postgres' && search !== 'opensearch') throw new AppError('invalid_request', '--search must be postgres or opensearch', { path: '--search' });
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn');
  process.stdout.write(`starting embedded Postgres${search === 'opensearch' ? ', OpenSearch' : ''}, sandbox runtime, API and worker...\n`);
  const listeners = signalListeners();
  const stack = await startEmbeddedStack({ logger, ...(search === undefined ? {} : { search }) });
  try {
    stack.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: customers });
    stack.sandbox.configure({ connectorType: 'applicant_tracking', entity: 'candidates', size: 300 });
    const { token } = await createToken(stack.deps.db, await ensureOrganization(stack.deps.db, 'demo'));
    process.stdout.write(`store ${stack.postgres.source} postgres, queue ${stack.deps.queues.kind}, search ${stack.deps.backend.kind}${stack.opensearch === null ? '' : ` (${stack.opensearch.source}, ${stack.opensearch.url})`}, API ${stack.apiUrl}\n`);
    process.stdout.write(`syncing ${customers} payments customers and 300 applicant-tracking candidates...\n`);
    // Served, the schedules tick every few minutes, so the dashboard shows runs coming in.
    const schedule = serve ? { schedule: '5m' } : {};
    const ids = {
      customers: await syncConnector(stack, token, { connector_type: 'payments', name: 'Demo payments', credentials: { api_key: 'sk_test_demo_secret' }, replication_config: { entities: ['customers'], ...schedule } }),
      candidates: await syncConnector(stack, token, { connector_type: 'applicant_tracking', name: 'Demo recruiting', credentials: { api_key: 'demo_ats_key' }, replication_config: { entities: ['candidates'], ...schedule } }),
    };
    await waitSearchable(stack, ids.customers, 'payments', 'customers');
    await waitSearchable(stack, ids.candidates, 'applicant_tracking', 'candidates');
    const exec = (id: string): string => `${stack.apiUrl}/api/v1/integrations/connectors/${id}/execute`;
    // Sample records to build the searches from: a customer, and a candidate with an email address.
    const sample = async (entity: string, filter: Json): Promise<Json> => ((await call(exec(ids[entity as keyof typeof ids]), token, { entity, action: 'search', params: { query: { filter }, limit: 1 } })).hits as Hit[])[0]?.data ?? {};
    const customer = await sample('customers', { eq: { id: 'cus_000003' } });
    const candidate = await sample('candidates', { any: { email_addresses: { neq: { value: null } } } });
    const searches = demoSearches(customer, candidate);
    for (const s of searches) await runSearch(exec, ids, token, s);
    const fuzzy = searches.find((s) => JSON.stringify(s.params).includes('"fuzzy"')) as DemoSearch;
    if (serve) return await serveUntilSignal(stack, listeners, { userToken: token, connectorId: ids.customers, entity: fuzzy.entity, params: fuzzy.params });
    process.stdout.write('\ndemo finished; shutting down\n');
    return 0;
  } finally {
    await stack.stop();
    if (serve) process.stdout.write('stopped; temporary data removed\n');
  }
}
