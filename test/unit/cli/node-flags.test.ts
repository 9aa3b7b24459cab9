/**
 * The V8 flags in bin/syncdex.mjs's shebang, the Dockerfile and the bench's process (which serves
 * the search bench's API, as `syncdex api` would) are the ones node-flags.ts gives child processes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NODE_FLAGS } from '../../../src/cli/node-flags.js';

const read = (file: string): string => readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');

describe('node flags', () => {
  it('the shebang of bin/syncdex.mjs passes exactly NODE_FLAGS', () => {
    const shebang = read('bin/syncdex.mjs').split('\n')[0] ?? '';
    expect(shebang.replace(/^#!\/usr\/bin\/env -S node\s*/, '').split(/\s+/)).toEqual([...NODE_FLAGS]);
  });

  it('npm run bench runs with exactly NODE_FLAGS (its API and in-process searches run as syncdex processes do)', () => {
    const script = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.bench ?? '';
    expect(script.split(/\s+/).filter((a) => a.startsWith('--'))).toEqual([...NODE_FLAGS]);
  });

  it('the Dockerfile ENTRYPOINT passes exactly NODE_FLAGS before the CLI', () => {
    const entry = /^ENTRYPOINT (\[.*\])$/m.exec(read('Dockerfile'))?.[1] ?? '[]';
    expect(JSON.parse(entry)).toEqual(['node', ...NODE_FLAGS, 'bin/syncdex.mjs']);
  });
});
