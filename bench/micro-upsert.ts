import { providePostgres } from '../src/services/local-services.js';
import { createDb } from '../src/store/db.js';
import { migrateToLatest } from '../src/store/migrate.js';
import { upsertPage } from '../src/store/records-repo.js';
import { withShadows } from '../src/worker/page-writer.js';
import { insertConnectorRow } from '../test/conformance/postgres-page.js';
import { Sandbox } from '../src/sandbox/sandbox.js';
import { catalog } from '../src/connectors/catalog/index.js';

const pg = await providePostgres(undefined);
const { db } = createDb(pg.url, 2);
await migrateToLatest(db);
if (process.argv[2]) { await (await import("kysely")).sql.raw(process.argv[2]).execute(db); await (await import("kysely")).sql.raw("select pg_reload_conf()").execute(db); }
const sb = new Sandbox({ defaultSize: 20000 });
const ds = sb.dataset('payments', 'customers');
let t = performance.now();
const recs = Array.from({ length: 20000 }, (_, i) => ds.recordAt(i));
console.log('generate 20k', Math.round(performance.now() - t), 'ms');
const searchable = catalog.payments!.entities.customers!.searchable;
for (const shadow of [false, true]) {
  const cid = await insertConnectorRow(db, 'payments');
  t = performance.now();
  let shadowMs = 0;
  for (let i = 0; i < 20000; i += 100) {
    const page = recs.slice(i, i + 100).map((d) => ({ id: String(d.id), data: d }));
    const s0 = performance.now();
    const rows = shadow ? withShadows(page, searchable) : page;
    shadowMs += performance.now() - s0;
    await db.transaction().execute((tx) => upsertPage(tx, cid, 'customers', rows));
  }
  console.log(shadow ? 'with shadow' : 'no shadow', Math.round(performance.now() - t), 'ms; shadow compute', Math.round(shadowMs));
}
await db.destroy(); await pg.stop();
