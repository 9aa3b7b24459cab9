/**
 * The API reference: /openapi.json names every route the app serves (but the dashboard's static
 * files, bull-board and the reference page itself), each with its error shapes, and /docs serves
 * Swagger UI on it without a token. (The page rendering in a browser: test/e2e/api-docs.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApi } from '../../src/api/server.js';
import { startHarness, type Harness } from './helpers/harness.js';

type Operation = { responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>; security?: unknown[] };
const UNDOCUMENTED = /^\/(admin\/?$|admin\/assets|admin\/queues|docs)/;

describe('API reference', () => {
  let h: Harness;
  let app: FastifyInstance;
  const routes: { method: string; url: string }[] = [];

  beforeAll(async () => {
    h = await startHarness({ worker: false });
    app = buildApi(h.deps);
    app.addHook('onRoute', (r) => {
      for (const m of [r.method].flat()) if (m !== 'HEAD' && m !== 'OPTIONS') routes.push({ method: m.toLowerCase(), url: r.url });
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  it('documents every route with its error responses', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };
    const served = routes.filter((r) => !UNDOCUMENTED.test(r.url));
    expect(served.length).toBeGreaterThan(20);
    expect(JSON.stringify(doc.components.schemas.error)).toContain('"message"');
    for (const r of served) {
      const path = r.url.replace(/:(\w+)/g, '{$1}');
      const op = doc.paths[path]?.[r.method];
      expect(op, `${r.method} ${path}`).toBeDefined();
      if (op?.security === undefined) continue;
      // Every route behind a token says what its errors look like.
      for (const status of ['401', '503']) {
        const res = op.responses?.[status];
        expect(res?.description, `${r.method} ${path} ${status}`).toBeTruthy();
        expect(JSON.stringify(res?.content), `${r.method} ${path} ${status}`).toContain('"#/components/schemas/error"');
      }
    }
  });

  it('serves Swagger UI at /docs without a token, under its own CSP', async () => {
    const page = await app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger-ui');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const spec = await app.inject({ method: 'GET', url: '/docs/json' });
    expect(spec.statusCode).toBe(200);
    expect(Object.keys((spec.json() as { paths: object }).paths)).toContain('/api/v1/integrations/connectors/{id}/execute');
    expect((await app.inject({ method: 'GET', url: '/admin/api/runs' })).statusCode).toBe(401);
  });
});
