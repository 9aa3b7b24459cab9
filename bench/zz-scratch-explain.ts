import { parseSearchParams } from '../src/search/dsl/parse.js';
import { compileSearch, compileTierSearch } from '../src/search/postgres/compile-search.js';
import { planIndexes } from '../src/search/postgres/index-plan.js';
import { searchTarget } from '../src/search/target.js';
import { createDb } from '../src/store/db.js';
const url = 'postgres://postgres@127.0.0.1:55432/postgres';
const [connectorId, paramsJson, tierFlag] = process.argv.slice(2);
const target = searchTarget('payments', 'customers');
const { db, pool } = createDb(url, 2) as any;
const query = parseSearchParams(target, JSON.parse(paramsJson!));
const req = { target, connectorId: connectorId!, query, after: null, size: query.limit + 1 };
let t = performance.now();
const { plan, tier } = await planIndexes(db, req);
console.log('plan ms', (performance.now() - t).toFixed(2), JSON.stringify(plan).slice(0, 400), tier === null ? 'no tier' : `tier score ${tier.score}`);
const compiled = (tierFlag === 'tier' && tier !== null ? compileTierSearch(req, plan, tier) : compileSearch(req, plan)).compile(db);
for (let i = 0; i < 3; i++) {
  t = performance.now();
  const r = await pool.query(compiled.sql, compiled.parameters);
  console.log('run ms', (performance.now() - t).toFixed(2), r.rows.length);
}
const r = await pool.query(`explain (analyze, buffers, costs off) ${compiled.sql}`, compiled.parameters);
console.log(r.rows.map((x: any) => x['QUERY PLAN']).join('\n'));
await db.destroy();
