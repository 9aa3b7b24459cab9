import { describe, expect, it } from 'vitest';
import { recordWords } from '../../../src/search/postgres/search-text.js';
import { hashWords, tenantSeed } from '../../../src/search/postgres/word-index.js';
import { indexWords, rememberWords } from '../../../src/store/vocab-repo.js';

const searchable = { name: 'string', tags: 'array' };
const record = (name: string, tags: string[] = []) => ({ words: recordWords(searchable, { name, tags }) });

describe('the written-words memo of the vocabulary', () => {
  it('hashes as hashWords does, reports each unwritten word once per page, and skips words written before', () => {
    const page = [record('Ada Lovelace', ['ada']), record('ada hopper')];
    const first = indexWords('m1', 'customers', page);
    expect(first.words).toEqual(page.map((r) => hashWords(tenantSeed('m1', 'customers'), r.words)));
    expect(first.fresh.map((e) => `${e.path}:${e.word}`).sort()).toEqual(['name:ada', 'name:hopper', 'name:lovelace', 'tags:ada']);
    // Not remembered (the page rolled back): the next page reports them again.
    expect(indexWords('m1', 'customers', page).fresh).toHaveLength(4);
    rememberWords('m1', 'customers', first.fresh);
    const next = indexWords('m1', 'customers', [record('Ada Turing', ['ada'])]);
    expect(next.fresh.map((e) => `${e.path}:${e.word}`)).toEqual(['name:turing']);
    expect(next.words[0]).toEqual(hashWords(tenantSeed('m1', 'customers'), record('Ada Turing', ['ada']).words));
    // Another tenant's words are its own.
    expect(indexWords('m2', 'customers', [record('ada')]).fresh).toHaveLength(1);
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
