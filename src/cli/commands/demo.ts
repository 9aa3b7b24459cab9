/**
 * `syncdex demo`: the main job end to end on the embedded default — start services, create a
 * payments connector through the API, sync `customers` from the sandbox, run searches, print.
 */
import { startEmbeddedStack } from '../../app/embedded-stack.js';
import { createLogger } from '../../logger.js';
import { createToken, ensureOrganization } from '../../store/tokens-repo.js';
import { int, parse } from '../args.js';
import { waitForRun } from '../wait-run.js';

type Json = Record<string, unknown>;

async function call(url: string, token: string, body: unknown): Promise<Json> {
  const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as Json;
  if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(json)}`);
  return json;
}

function printHits(title: string, res: Json): void {
  const hits = res.hits as { id: string; score: number; data: Json }[];
  process.stdout.write(`\n▶ ${title}\n`);
  for (const h of hits) {
    const d = h.data;
    process.stdout.write(`  ${h.id}  ${String(d.name)} <${String(d.email)}>  currency=${String(d.currency)} balance=${String(d.balance)}\n`);
  }
  process.stdout.write(`  ${hits.length} hits, took_ms=${String(res.took_ms)}, next_cursor=${res.next_cursor === null ? 'null' : `${String(res.next_cursor).slice(0, 24)}…`}\n`);
}

export async function demoCommand(argv: string[]): Promise<number> {
  const p = parse(argv, { customers: { type: 'string' } });
  const customers = int(p, 'customers') ?? 2500;
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn');
  process.stdout.write('starting embedded Postgres, sandbox runtime, API and worker…\n');
  const stack = await startEmbeddedStack({ logger });
  try {
    stack.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: customers });
    const { token } = await createToken(stack.deps.db, await ensureOrganization(stack.deps.db, 'demo'));
    process.stdout.write(`store ${stack.postgres.source} postgres, queue ${stack.deps.queues.kind}, API ${stack.apiUrl}\n`);
    const connector = await call(`${stack.apiUrl}/api/v1/integrations/connectors`, token, {
      external_user_id: 'demo-user',
      connector_type: 'payments',
      name: 'Demo payments',
      credentials: { api_key: 'sk_test_demo_secret' },
      replication_config: { entities: ['customers'] },
    });
    process.stdout.write(`created connector ${String(connector.id)}; syncing ${customers} customers…\n`);
    const runs = await stack.deps.db.selectFrom('sync_runs').select('id').where('connector_id', '=', String(connector.id)).execute();
    for (const r of runs) {
      const final = await waitForRun(stack.deps.db, r.id, { out: process.stdout });
      if (final.status !== 'succeeded') throw new Error(`run ${final.id} ${final.status}: ${final.error?.message ?? ''}`);
    }
    const exec = `${stack.apiUrl}/api/v1/integrations/connectors/${String(connector.id)}/execute`;
    const first = await call(exec, token, { entity: 'customers', action: 'search', params: { query: {}, limit: 1 } });
    const sample = (first.hits as { data: Json }[])[0]?.data ?? {};
    printHits(`eq email = ${String(sample.email)}`, await call(exec, token, { entity: 'customers', action: 'search', params: { query: { filter: { eq: { email: sample.email } } } } }));
    const and = { and: [{ eq: { currency: 'eur' } }, { eq: { delinquent: false } }] };
    const page1 = await call(exec, token, { entity: 'customers', action: 'search', params: { query: { filter: and }, limit: 5 } });
    printHits('and [currency = eur, delinquent = false], limit 5', page1);
    if (page1.next_cursor !== null) {
      printHits('…next page via next_cursor', await call(exec, token, { entity: 'customers', action: 'search', params: { query: { filter: and }, limit: 5, cursor: page1.next_cursor } }));
    }
    process.stdout.write('\ndemo finished; shutting down\n');
    return 0;
  } finally {
    await stack.stop();
  }
}
