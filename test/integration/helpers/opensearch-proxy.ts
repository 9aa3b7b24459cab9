/**
 * A fault-injecting HTTP proxy in front of the REAL OpenSearch: every request goes to the engine
 * unless the test's `intercept` answers it first (a 429, a 503, a dropped connection) or holds it
 * (to run something at the exact moment a request arrives). Nothing here stores or searches.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@opensearch-project/opensearch';

/** A request as it arrived at the proxy. */
export interface ProxiedRequest {
  readonly method: string;
  readonly path: string;
  readonly body: string;
}

/** What `intercept` decides: forward (undefined), answer instead, or drop the connection. */
export type Interception = undefined | { readonly status: number; readonly body: unknown; readonly headers?: Record<string, string> } | 'drop';

/** The proxy and a client that talks through it. */
export interface OpenSearchProxy {
  readonly url: string;
  readonly client: Client;
  readonly requests: ProxiedRequest[];
  /** Runs before each request is forwarded; may await (the request waits too). */
  intercept: (req: ProxiedRequest) => Interception | Promise<Interception>;
  close(): Promise<void>;
}

function forward(target: URL, req: http.IncomingMessage, body: Buffer, res: http.ServerResponse): void {
  const up = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (upRes) => {
    res.writeHead(upRes.statusCode ?? 502, upRes.headers);
    upRes.pipe(res);
  });
  up.on('error', () => res.destroy());
  up.end(body);
}

export async function openSearchProxy(engineUrl: string): Promise<OpenSearchProxy> {
  const target = new URL(engineUrl);
  const requests: ProxiedRequest[] = [];
  const proxy: OpenSearchProxy = {
    url: '',
    client: undefined as unknown as Client,
    requests,
    intercept: () => undefined,
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const seen = { method: req.method ?? '', path: decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname), body: body.toString('utf8') };
      requests.push(seen);
      const decision = await proxy.intercept(seen);
      if (decision === 'drop') return void res.destroy();
      if (decision === undefined) return forward(target, req, body, res);
      res.writeHead(decision.status, { 'content-type': 'application/json', ...decision.headers });
      res.end(JSON.stringify(decision.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new Client({ node: url });
  return Object.assign(proxy, {
    url,
    client,
    close: async () => {
      await client.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
