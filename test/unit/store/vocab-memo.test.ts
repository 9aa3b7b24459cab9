import { describe, expect, it } from 'vitest';
import { recordSearchText } from '../../../src/search/postgres/search-text.js';
import { hashWords, pathSeed, tenantSeed, wordGroups, wordHash } from '../../../src/search/postgres/word-index.js';
import { indexWords, rememberWords } from '../../../src/store/page-words.js';

const searchable = { name: 'string', tags: 'array' };
const record = (name: string, tags: string[] = []) => ({ strings: recordSearchText(searchable, { name, tags }).strings });

describe('the written-words memo of the vocabulary', () => {
  it('hashes as hashWords does, reports each unwritten word once per page, and skips words written before', () => {
    const page = [record('Ada Lovelace', ['ada']), record('ada hopper')];
    const first = indexWords('m1', 'customers', page);
    expect(page.map((_, i) => first.words.of(i))).toEqual(page.map((r) => hashWords(tenantSeed('m1', 'customers'), wordGroups(r.strings))));
    expect(first.fresh.map((e) => `${e.path}:${e.word}`).sort()).toEqual(['name:ada', 'name:hopper', 'name:lovelace', 'tags:ada']);
    // Not remembered (the page rolled back): the next page reports them again.
    expect(indexWords('m1', 'customers', page).fresh).toHaveLength(4);
    rememberWords('m1', 'customers', first.fresh);
    const next = indexWords('m1', 'customers', [record('Ada Turing', ['ada'])]);
    expect(next.fresh.map((e) => `${e.path}:${e.word}`)).toEqual(['name:turing']);
    expect(next.words.of(0)).toEqual(hashWords(tenantSeed('m1', 'customers'), wordGroups(record('Ada Turing', ['ada']).strings)));
    // Another tenant's words are its own.
    expect(indexWords('m2', 'customers', [record('ada')]).fresh).toHaveLength(1);
  });

  it('lays a page\'s words out record after record: a record without strings has no column, one without words an empty one', () => {
    const page = [record('Ada Lovelace ada'), { strings: null }, record(''), record('hopper ada')];
    const { words } = indexWords('m7', 'customers', page);
    expect([0, 1, 2, 3].map((i) => words.of(i))).toEqual([hashWords(tenantSeed('m7', 'customers'), wordGroups(page[0]!.strings!)), null, [], hashWords(tenantSeed('m7', 'customers'), wordGroups(page[3]!.strings!))]);
    expect(words.hashes).toHaveLength(4);
    expect([words.start(0), words.count(0), words.start(3), words.count(3)]).toEqual([0, 2, 2, 2]);
  });

  it('stays bounded, and keeps the words a sync keeps meeting when it drops old ones', () => {
    const common = record('ada');
    rememberWords('m3', 'customers', indexWords('m3', 'customers', [common]).fresh);
    // 250,000 distinct words pass through (two and a half generations); "ada" is met between them.
    for (let i = 0; i < 250; i++) {
      const page = Array.from({ length: 1000 }, (_, k) => record(`w${i}x${k}`));
      rememberWords('m3', 'customers', indexWords('m3', 'customers', page).fresh);
      expect(indexWords('m3', 'customers', [common]).fresh, `after ${i + 1} pages`).toHaveLength(0);
    }
    // A word met only at the start is dropped: written again, never lost.
    expect(indexWords('m3', 'customers', [record('w0x0')]).fresh).toHaveLength(1);
  });
});

describe('the memo keyed by hash', () => {
  /** Two different words of one path whose hashes collide within the tenant (found by a birthday search). */
  function collidingWords(connectorId: string): [string, string] {
    const at = pathSeed(tenantSeed(connectorId, 'customers'), 'name');
    const seen = new Map<number, string>();
    for (let i = 0; ; i++) {
      const w = `w${i}`;
      const h = wordHash(at, w);
      const other = seen.get(h);
      if (other !== undefined) return [other, w];
      seen.set(h, w);
    }
  }

  it('never takes a word for another that shares its hash: the second is still written to the vocabulary', () => {
    const [a, b] = collidingWords('m4');
    rememberWords('m4', 'customers', indexWords('m4', 'customers', [record(a)]).fresh);
    expect(indexWords('m4', 'customers', [record(a)]).fresh).toHaveLength(0);
    const second = indexWords('m4', 'customers', [record(b)]);
    expect(second.fresh.map((e) => e.word)).toEqual([b]);
    // Both hash alike in `words`: the index is only a pre-filter, the exact predicate decides.
    expect(second.words.of(0)).toEqual(indexWords('m4', 'customers', [record(a)]).words.of(0));
    // Within one page too.
    expect(indexWords('m5', 'customers', [record(a), record(b)]).fresh.map((e) => e.word).sort()).toEqual([a, b].sort());
  });

  it('a word at another path is another word', () => {
    rememberWords('m6', 'customers', indexWords('m6', 'customers', [record('ada')]).fresh);
    expect(indexWords('m6', 'customers', [record('x', ['ada'])]).fresh.map((e) => `${e.path}:${e.word}`).sort()).toEqual(['name:x', 'tags:ada']);
  });
});
