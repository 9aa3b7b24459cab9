import { sql } from 'kysely';
import { catalog } from '../src/connectors/catalog/index.js';
import { migrateAll } from '../src/app/migrate.js';
import { Sandbox } from '../src/sandbox/sandbox.js';
import { createDb } from '../src/store/db.js';
import { upsertPage } from '../src/store/records-repo.js';
import { lookupFields } from '../src/search/target.js';
import { withShadows } from '../src/worker/page-writer.js';
import { rememberWords } from '../src/store/vocab-repo.js';
import { statsKeeper } from '../src/store/table-stats.js';
import { insertConnectorRow } from '../test/conformance/postgres-page.js';
const url = 'postgres://postgres@127.0.0.1:55432/postgres';
const n = Number(process.argv[2] ?? 100000);
const ENTITY = catalog.payments!.entities.customers!;
const { db } = createDb(url, 4);
await migrateAll(db, { kind: 'postgres', url });
const id = await insertConnectorRow(db, 'payments');
const ds = new Sandbox({ defaultSize: n }).dataset('payments', 'customers');
const t0 = performance.now();
let inflight: Promise<unknown>[] = [];
for (let i = 0; i < n; i += 1000) {
  const docs = Array.from({ length: Math.min(1000, n - i) }, (_, k) => ds.recordAt(i + k));
  const page = withShadows(docs.map((d) => ({ id: String(d.id), data: d })), ENTITY.searchable, lookupFields(ENTITY));
  inflight.push(upsertPage(db, id, 'customers', page).then((c) => { statsKeeper(db).wrote(c.inserted + c.updated); rememberWords(id, 'customers', c.words ?? []); statsKeeper(db).poke(); }));
  if (inflight.length >= 2) { await Promise.all(inflight); inflight = []; }
  if ((i / 1000) % 50 === 49) console.log(`loaded ${i + 1000} ${Math.round((i + 1000) / ((performance.now() - t0) / 1000))} rec/s`);
}
await Promise.all(inflight);
statsKeeper(db).poke(true); await statsKeeper(db).settle();
const small = await insertConnectorRow(db, 'payments');
const ds2 = new Sandbox({ defaultSize: 1000, seed: 7 }).dataset('payments', 'customers');
const docs2 = Array.from({ length: 1000 }, (_, k) => ds2.recordAt(k));
await upsertPage(db, small, 'customers', withShadows(docs2.map((d) => ({ id: String(d.id), data: d })), ENTITY.searchable, lookupFields(ENTITY)));
console.log(JSON.stringify({ id, small, sample: ds.recordAt(20001), sample2: ds.recordAt(40002) }));
await db.destroy();
