import { describe, expect, it } from 'vitest';
import { cases } from '../../conformance/cases.js';
import { collect, referencePage } from '../../conformance/run-case.js';

describe('conformance table on the reference evaluator', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const hits = await collect(referencePage, c.params);
      expect(hits.map((h) => h.id)).toEqual(c.ids);
      if (c.scores !== undefined) expect(hits.map((h) => h.score)).toEqual(c.scores);
      if (c.data !== undefined) expect(hits[0]?.data).toEqual(c.data);
      const paged = await collect(referencePage, c.params, 3);
      expect(paged.map((h) => h.id)).toEqual(c.ids);
    });
  }
});
