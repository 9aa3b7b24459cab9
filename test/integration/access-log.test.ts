/**
 * The API's access log: one line per answered request (method, path, status, duration, request
 * id), none on arrival, and no query string.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers/harness.js';

type Line = { msg: string; level: number; reqId?: string; method?: string; path?: string; status?: number; ms?: number };

describe('the API access log', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ worker: false });
  });
  afterAll(async () => h?.close());

  const linesSince = (from: number): Line[] => h.logs.slice(from).flatMap((l) => l.split('\n')).filter((l) => l !== '').map((l) => JSON.parse(l) as Line);

  it('writes one line per request, after its answer, with its status and duration', async () => {
    const token = await h.token();
    const from = h.logs.length;
    const answers = [
      await h.app.inject({ method: 'GET', url: '/healthz' }),
      await h.app.inject({ method: 'GET', url: '/api/v1/integrations/connectors?secret=s3cr3t' }),
      await h.app.inject({ method: 'GET', url: '/api/v1/integrations/connectors', headers: { authorization: `Bearer ${token}` } }),
      await h.app.inject({ method: 'GET', url: '/no/such/route' }),
    ];
    const lines = linesSince(from);
    const requests = lines.filter((l) => l.msg === 'request');
    expect(answers.map((a) => a.statusCode).slice(1, 3)).toEqual([401, 200]);
    const paths = ['/healthz', '/api/v1/integrations/connectors', '/api/v1/integrations/connectors', '/no/such/route'];
    expect(requests.map((l) => [l.method, l.path, l.status])).toEqual(answers.map((a, i) => ['GET', paths[i], a.statusCode]));
    for (const l of requests) {
      expect(l.level).toBe(30);
      expect(typeof l.ms).toBe('number');
      expect(l.reqId).toBeTruthy();
    }
    expect(new Set(requests.map((l) => l.reqId)).size).toBe(4);
    // Fastify's own pair of lines is off, and the query string stays out of the log.
    expect(lines.filter((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toEqual([]);
    expect(JSON.stringify(lines)).not.toContain('s3cr3t');
  });
});
