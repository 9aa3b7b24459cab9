import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpConnectorRuntime } from '../../../src/connectors/runtime-client.js';
import type { AppError } from '../../../src/errors.js';

// A scripted runtime: each test sets what the next call answers.
let answer: (res: http.ServerResponse, body: string) => void = () => undefined;
let lastAuth: string | undefined;
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    lastAuth = req.headers.authorization;
    answer(res, body);
  });
});
let url = '';
const call = { connectorType: 'payments', credentials: { api_key: 'k' }, entity: 'customers', action: 'list', params: { limit: 10 } } as const;
const failure = async (p: Promise<unknown>): Promise<AppError> => p.then(() => { throw new Error('expected failure'); }, (e: AppError) => e);

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));

describe('HttpConnectorRuntime', () => {
  // Generous for calls that must succeed on a loaded machine; the timeout case asks for a short one.
  const client = (timeoutMs = 5000) => new HttpConnectorRuntime({ baseUrl: url, token: 'rt-token', timeoutMs });

  it('posts the protocol body with the bearer token and returns data + meta', async () => {
    let sent: unknown;
    const text = JSON.stringify({ data: [{ id: 'a' }], meta: { has_more: false } });
    answer = (res, body) => { sent = JSON.parse(body); res.end(text); };
    const page = await client().execute(call);
    expect(page).toEqual({ data: [{ id: 'a' }], meta: { has_more: false }, body: Buffer.from(text) });
    expect(sent).toEqual({ connector_type: 'payments', credentials: { api_key: 'k' }, entity: 'customers', action: 'list', params: { limit: 10 } });
    expect(lastAuth).toBe('Bearer rt-token');
  });

  it('keeps no bytes of a page that is not valid UTF-8: records are stored from the decoded text', async () => {
    answer = (res) => res.end(Buffer.concat([Buffer.from('{"data":[{"id":"a","name":"'), Buffer.from([0xff]), Buffer.from('"}],"meta":{}}')]));
    const page = await client().execute(call);
    expect(page).toEqual({ data: [{ id: 'a', name: '\ufffd' }], meta: {} });
  });

  it('429 is retryable and carries Retry-After', async () => {
    answer = (res) => { res.writeHead(429, { 'retry-after': '7' }); res.end('{"error":{"code":"rate_limited","message":"slow down"}}'); };
    const e = await failure(client().execute(call));
    expect([e.code, e.retryable, e.retryAfterSec, e.upstreamStatus]).toEqual(['rate_limited', true, 7, 429]);
  });

  it('a 429 without a readable Retry-After leaves the wait to the caller; a 503 carries its Retry-After', async () => {
    for (const header of [undefined, 'soon']) {
      answer = (res) => { res.writeHead(429, header === undefined ? {} : { 'retry-after': header }); res.end('{}'); };
      const e = await failure(client().execute(call));
      expect([header, e.code, e.retryAfterSec]).toEqual([header, 'rate_limited', undefined]);
    }
    answer = (res) => { res.writeHead(503, { 'retry-after': '30' }); res.end('maintenance'); };
    const e = await failure(client().execute(call));
    expect([e.code, e.retryable, e.retryAfterSec]).toEqual(['upstream_error', true, 30]);
  });

  it('5xx is retryable; 401 is not and keeps the upstream message', async () => {
    answer = (res) => { res.writeHead(503); res.end('down'); };
    expect((await failure(client().execute(call))).retryable).toBe(true);
    answer = (res) => { res.writeHead(401); res.end('{"error":{"code":"unauthorized","message":"API key revoked"}}'); };
    const e = await failure(client().execute(call));
    expect([e.retryable, e.upstreamStatus]).toEqual([false, 401]);
    expect(e.message).toContain('API key revoked');
  });

  it('408 and 425 ask to try again and are retryable; 400 and 404 are not', async () => {
    for (const [status, retryable] of [[408, true], [425, true], [400, false], [404, false]] as const) {
      answer = (res) => { res.writeHead(status); res.end('{"error":{"message":"x"}}'); };
      expect([status, (await failure(client().execute(call))).retryable]).toEqual([status, retryable]);
    }
  });

  it('times out, and a truncated body is a retryable error', async () => {
    answer = () => undefined;
    const slow = await failure(client(300).execute(call));
    expect(slow.retryable).toBe(true);
    expect(slow.message).toContain('timed out');
    answer = (res) => res.end('{"data":[{"id":');
    const cut = await failure(client().execute(call));
    expect([cut.code, cut.retryable]).toEqual(['upstream_error', true]);
  });

  it('a connection dropped in the middle of the body is a retryable error, not a short page', async () => {
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"data":[{"id":"a"}],"meta":{}}');
      setTimeout(() => res.socket?.destroy(), 10);
    };
    const dropped = await failure(client().execute(call));
    expect([dropped.code, dropped.retryable]).toEqual(['upstream_error', true]);
  });

  it("the caller's abort (worker shutdown) ends the call as retryable unavailable", async () => {
    answer = () => undefined;
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 20);
    const aborted = await failure(new HttpConnectorRuntime({ baseUrl: url, timeoutMs: 5000 }).execute(call, ctl.signal));
    expect([aborted.code, aborted.retryable, aborted.message]).toEqual(['unavailable', true, 'runtime call aborted']);
  });

  it('a deadline or an abort that lands mid-body still says so', async () => {
    // The headers came and the body stalls: the destroyed request reports a closed response.
    answer = (res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.write('{"data":['); };
    const slow = await failure(client(300).execute(call));
    expect([slow.code, slow.retryable]).toEqual(['upstream_error', true]);
    expect(slow.message).toBe('runtime call timed out after 300 ms');
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 100);
    const aborted = await failure(new HttpConnectorRuntime({ baseUrl: url, timeoutMs: 5000 }).execute(call, ctl.signal));
    expect([aborted.code, aborted.message]).toEqual(['unavailable', 'runtime call aborted']);
  });

  it('an already aborted signal sends nothing', async () => {
    let calls = 0;
    answer = (res) => { calls++; res.end('{"data":[],"meta":{}}'); };
    const ctl = new AbortController();
    ctl.abort();
    const aborted = await failure(client().execute(call, ctl.signal));
    expect([aborted.code, calls]).toEqual(['unavailable', 0]);
  });

  it('reuses its connection between calls', async () => {
    const sockets = new Set<unknown>();
    answer = (res) => { sockets.add(res.socket); res.end('{"data":[],"meta":{}}'); };
    const c = client();
    for (let i = 0; i < 5; i++) await c.execute(call);
    expect(sockets.size).toBe(1);
  });
});
