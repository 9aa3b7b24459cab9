import { httpSearcher } from './search-http.js';
import { runSearch } from '../src/search/search-service.js';
import { PostgresSearchBackend } from '../src/search/postgres/postgres-backend.js';
import { createDb } from '../src/store/db.js';
import { summarize, timeIt } from './lib/stats.js';
const url = 'postgres://postgres@127.0.0.1:55432/postgres';
const [connectorId, reps] = process.argv.slice(2);
const cases: Record<string, unknown> = {
  eq: { query: { filter: { eq: { email: 'jose.haddad20001@example.com' } } }, limit: 50 },
  range: { query: { filter: { gte: { created: 1767225600 - Math.floor(1e6 * 37 * 0.05) } }, sort: [{ created: 'desc' }] }, limit: 50 },
  like: { query: { filter: { like: { email: 'lovelace12' } } }, limit: 50 },
  likeCommon: { query: { filter: { like: { email: '%garcia%' } } }, limit: 50 },
  fuzzy: { query: { filter: { fuzzy: { name: 'ada lovelase' } } }, limit: 50 },
  keyword: { query: { filter: { keyword: { name: 'grace hopper' } } }, limit: 50 },
  eqRare: { query: { filter: { eq: { invoice_prefix: 'billing-30' } } }, limit: 50 },
  eqNested: { query: { filter: { eq: { 'metadata.region': 'contract-625' } } }, limit: 50 },
  fuzzyEq: { query: { filter: { and: [{ fuzzy: { name: 'ada lovelase' } }, { eq: { currency: 'eur' } }] }, sort: [{ created: 'desc' }] }, limit: 50 },
};
const { db } = createDb(url, 4);
const deps = { db, backend: new PostgresSearchBackend(), cursorSecret: 'bench-secret-bench-secret' };
const http = await httpSearcher(url, { SEARCH_BACKEND: 'postgres' });
const connector = { id: connectorId!, connectorType: 'payments' };
const only = process.argv[4]?.split(',');
for (const [name, params] of Object.entries(cases)) {
  if (only !== undefined && !only.includes(name)) continue;
  const hits = (await runSearch(deps, connector, 'customers', params)).hits.length;
  const a = summarize(await timeIt(Number(reps ?? 20), () => runSearch(deps, connector, 'customers', params)));
  const b = summarize(await timeIt(Number(reps ?? 20), () => http.search(connectorId!, params)));
  console.log(`${name.padEnd(12)} hits ${hits}  in-process p50 ${a.p50.toFixed(2)} p95 ${a.p95.toFixed(2)}  http p50 ${b.p50.toFixed(2)} p95 ${b.p95.toFixed(2)}`);
}
await http.close(); await db.destroy();
