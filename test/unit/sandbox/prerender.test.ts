/** Pre-rendered datasets (benchmarks) serve exactly what generation would, over HTTP too. */
import { describe, expect, it } from 'vitest';
import { Sandbox } from '../../../src/sandbox/sandbox.js';
import { startSandboxServer } from '../../../src/sandbox/server.js';

async function pageText(url: string, params: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${url}/v1/execute`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ connector_type: 'payments', entity: 'customers', action: 'list', credentials: { api_key: 'k' }, params }) });
  expect(res.status).toBe(200);
  return res.text();
}

describe('prerendered datasets', () => {
  it('serve byte-identical pages, and regenerate updated records', async () => {
    const plain = await startSandboxServer({ port: 0, sandbox: new Sandbox({ defaultSize: 250, seed: 7 }) });
    const fast = await startSandboxServer({ port: 0, sandbox: new Sandbox({ defaultSize: 250, seed: 7 }) });
    try {
      fast.sandbox.dataset('payments', 'customers').prerender();
      for (const params of [{ limit: 100 }, { limit: 7, starting_after: 'cus_000120' }, { limit: 100, starting_after: 'cus_000200' }]) {
        expect(await pageText(fast.url, params)).toBe(await pageText(plain.url, params));
      }
      for (const s of [plain.sandbox, fast.sandbox]) s.mutate('payments', 'customers', { create: 2, update: 30, delete: 3 });
      expect(await pageText(fast.url, { limit: 100 })).toBe(await pageText(plain.url, { limit: 100 }));
    } finally {
      await plain.close();
      await fast.close();
    }
  });
});
