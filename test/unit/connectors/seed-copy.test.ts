import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const shared = path.resolve(root, '../shared/seeds');

describe('docs/source copy of the seeds', () => {
  it.runIf(existsSync(shared))('matches ../shared/seeds byte for byte', () => {
    for (const f of ['000_c4fcd12f2a9afda2.txt', '001_abfefe7d930161fe.txt']) {
      expect(readFileSync(path.join(root, 'docs/source', f), 'utf8')).toBe(readFileSync(path.join(shared, f), 'utf8'));
    }
  });
});
