/**
 * A local HTTP server standing in for OpenSearch at the HTTP boundary ONLY: it records each
 * request the real client sends and answers with the response the test scripted. It has no
 * datastore logic (nothing is stored, nothing is searched).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@opensearch-project/opensearch';

export interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly body: string;
}

/** A scripted reply: status and JSON body. */
export interface Reply {
  readonly status: number;
  readonly body: unknown;
}

export interface FakeOpenSearch {
  readonly client: Client;
  readonly requests: Recorded[];
  /** Replies served in order; when empty, `fallback` answers. */
  readonly replies: Reply[];
  close(): Promise<void>;
}

/** `fallback` may answer later (a slow engine): requests are recorded when they arrive. */
export async function fakeOpenSearch(fallback: (req: Recorded) => Reply | Promise<Reply> = () => ({ status: 200, body: {} })): Promise<FakeOpenSearch> {
  const requests: Recorded[] = [];
  const replies: Reply[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const recorded = { method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      const reply = replies.shift() ?? (await fallback(recorded));
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client = new Client({ node: `http://127.0.0.1:${port}`, maxRetries: 0 });
  return {
    client,
    requests,
    replies,
    close: async () => {
      await client.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** NDJSON body → parsed lines. */
/** A bulk action's metadata as the backend sends it. */
export interface BulkMeta {
  readonly _index: string;
  readonly _id: string;
  readonly version: number;
}

/** OpenSearch's answer to a bulk request whose every action succeeds; `seen` is told each action. */
export function acceptBulk(body: string, seen: (op: 'index' | 'delete', meta: BulkMeta) => void = () => undefined): Reply {
  const actions = ndjsonLines(body).filter((l): l is Record<string, BulkMeta> => typeof l === 'object' && l !== null && ('index' in l || 'delete' in l));
  const items = actions.map((a) => {
    const [op, meta] = Object.entries(a)[0] as ['index' | 'delete', BulkMeta];
    seen(op, meta);
    return { [op]: { _index: meta._index, _id: meta._id, status: op === 'delete' ? 200 : 201, result: op === 'delete' ? 'deleted' : 'created' } };
  });
  return { status: 200, body: { took: 1, errors: false, items } };
}

export function ndjsonLines(body: string): unknown[] {
  expectNewlineTerminated(body);
  return body.trimEnd().split('\n').map((l) => JSON.parse(l) as unknown);
}

function expectNewlineTerminated(body: string): void {
  if (!body.endsWith('\n')) throw new Error('bulk body must end with a newline');
}
