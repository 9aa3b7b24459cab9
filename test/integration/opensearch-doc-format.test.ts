/**
 * Document formats on a REAL OpenSearch (names.ts DOC_FORMAT): an index made before formats
 * were recorded (untagged words, no `_meta`) keeps answering the conformance table exactly, is
 * written in its own format, and a reindex moves it to tagged words while searches go on, also
 * from a process whose view of the alias is older than the swap.
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectSearchable } from '../../src/search/doc.js';
import { indexMappings, indexSettings } from '../../src/search/opensearch/mapping.js';
import { aliasName, DOC_FORMAT, versionedIndexName, wordTag } from '../../src/search/opensearch/names.js';
import { OpenSearchBackend } from '../../src/search/opensearch/opensearch-backend.js';
import type { Db } from '../../src/store/db.js';
import { cases } from '../conformance/cases.js';
import { records, target } from '../conformance/dataset.js';
import { openSearchPage } from '../conformance/opensearch-page.js';
import { collect, referencePage, type PageFn } from '../conformance/run-case.js';
import { realOpenSearch, releaseOpenSearch, testPrefix } from './helpers/real-opensearch.js';

const url = realOpenSearch('OpenSearch document formats');
const noDb = undefined as unknown as Db;

/** Every conformance case: the page's ids and scores against the reference evaluator's. */
async function mismatches(page: PageFn): Promise<string[]> {
  const wrong: string[] = [];
  for (const c of cases) {
    const [got, want] = [await collect(page, c.params), await collect(referencePage, c.params)];
    const same = JSON.stringify(got.map((h) => [h.id, h.score])) === JSON.stringify(want.map((h) => [h.id, h.score]));
    if (!same) wrong.push(c.name);
  }
  return wrong;
}

describe.skipIf(url === null)('OpenSearch document formats', () => {
  const prefix = testPrefix();
  const connector = randomUUID();
  const other = randomUUID();
  let client: Client;
  let writer: OpenSearchBackend;
  let reader: OpenSearchBackend;
  const legacy = versionedIndexName(target, 1, prefix);

  /** Ships the records (and another tenant's copy) into `index` through `backend`, as the indexer would. */
  const ship = async (backend: OpenSearchBackend, index: string) => {
    for (const [tenant, idOf] of [[connector, (id: string) => id], [other, (id: string) => `other-${id}`]] as const) {
      const changes = records.map((r) => ({ recordId: idOf(r.id), version: '2', doc: projectSearchable(target.searchable, r.doc) }));
      await backend.apply(noDb, index, tenant, changes);
    }
  };
  const hitsOfTerm = async (index: string, word: string) => {
    const res = await client.search({ index, body: { query: { term: { 'sx.f.name.w': word } } } });
    return (res.body.hits.hits as unknown[]).length;
  };

  beforeAll(async () => {
    client = new Client({ node: url as string });
    // The index as a release before formats made it: the same mapping without `_meta`.
    const { _meta, ...mappings } = indexMappings(target);
    await client.indices.create({ index: legacy, body: { settings: indexSettings(target, { shards: 1, replicas: 0 }), mappings } as never });
    await client.indices.updateAliases({ body: { actions: [{ add: { index: legacy, alias: aliasName(target, prefix) } }] } });
    writer = new OpenSearchBackend({ client, prefix, refresh: true, layout: { shards: 1, replicas: 0 } });
    reader = new OpenSearchBackend({ client, prefix });
    expect(await writer.ensureIndex(noDb, target)).toBe(legacy);
    await ship(writer, legacy);
  }, 300_000);

  afterAll(() => releaseOpenSearch(client, prefix), 120_000);

  it('an index without a recorded format is written and searched with untagged words, exactly', async () => {
    expect(await hitsOfTerm(legacy, 'lovelace')).toBeGreaterThan(0);
    expect(await hitsOfTerm(legacy, `${wordTag(DOC_FORMAT, connector)}lovelace`)).toBe(0);
    expect(await mismatches(openSearchPage(reader, target, connector))).toEqual([]);
  });

  it('a reindex moves it to tagged words; searches stay exact, also from a process that read the alias before the swap', async () => {
    const readerPage = openSearchPage(reader, target, connector);
    const next = await writer.reindex(
      target,
      async (index) => {
        await ship(writer, index);
        // Just before the swap: `reader` reads the alias, still on the old index, and trusts it for a while.
        expect((await collect(readerPage, { query: { filter: { fuzzy: { name: 'ada' } } } })).length).toBeGreaterThan(0);
      },
      { dropOld: true },
    );
    const meta = (await client.indices.getMapping({ index: next })).body[next]?.mappings as { _meta?: { sx_format?: number } };
    expect(meta._meta?.sx_format).toBe(DOC_FORMAT);
    expect(await hitsOfTerm(next, 'lovelace')).toBe(0);
    expect(await hitsOfTerm(next, `${wordTag(DOC_FORMAT, connector)}lovelace`)).toBeGreaterThan(0);
    // `reader` last read the alias before the swap, and its index is gone: it reads the alias again.
    expect(await mismatches(readerPage)).toEqual([]);
    expect(await mismatches(openSearchPage(writer, target, connector))).toEqual([]);
  }, 120_000);
});
