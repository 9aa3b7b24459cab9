// Temporary profiling script (not committed): times a full customers sync end to end.
import { startEmbeddedStack } from '../src/app/embedded-stack.js';
import { createLogger } from '../src/logger.js';
import { createToken, ensureOrganization } from '../src/store/tokens-repo.js';
import { waitForRun } from '../src/cli/wait-run.js';

const n = Number(process.argv[2] ?? 20000);
const stack = await startEmbeddedStack({ logger: createLogger('warn') });
stack.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: n });
const token = await createToken(stack.deps.db, await ensureOrganization(stack.deps.db, 'b'));
const t0 = performance.now();
const res = await fetch(`${stack.apiUrl}/api/v1/integrations/connectors`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ external_user_id: 'u', connector_type: 'payments', name: 'p', credentials: { api_key: 'k' }, replication_config: { entities: ['customers'] } }) });
const c = await res.json() as { id: string };
console.log('POST took', Math.round(performance.now() - t0));
const runs = await stack.deps.db.selectFrom('sync_runs').select('id').where('connector_id', '=', c.id).execute();
const tw = performance.now();
const final = await waitForRun(stack.deps.db, runs[0]!.id, { quiet: true, intervalMs: 20 });
const secs = (performance.now() - t0) / 1000;
console.log('wait took', Math.round(performance.now() - tw));
console.log(final.status, n, 'records in', secs.toFixed(2), 's =', Math.round(n / secs), 'rec/s; avg bytes', JSON.stringify(stack.sandbox.dataset('payments', 'customers').recordAt(5)).length);
const r = await stack.deps.db.selectFrom('sync_runs').select(['queued_at','started_at','heartbeat_at','finished_at']).where('id','=',runs[0]!.id).executeTakeFirstOrThrow();
console.log('queued→started', +r.started_at! - +r.queued_at, 'started→lastpage', +r.heartbeat_at! - +r.started_at!, 'lastpage→finished', +r.finished_at! - +r.heartbeat_at!);
await stack.stop();
