import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const shared = path.resolve(root, '../shared/seeds');
const FILES = ['000_c4fcd12f2a9afda2.txt', '001_abfefe7d930161fe.txt'];

describe('docs/source copy of the seeds', () => {
  it('exists, and equals ../shared/seeds byte for byte when the checkout sits beside it', () => {
    for (const f of FILES) {
      const copy = readFileSync(path.join(root, 'docs/source', f), 'utf8');
      expect(copy.length).toBeGreaterThan(1000);
      if (existsSync(shared)) expect(copy).toBe(readFileSync(path.join(shared, f), 'utf8'));
    }
  });
});
