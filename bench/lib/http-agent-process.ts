/**
 * An agent's side of the HTTP search bench, in a process of its own (as agents are): it times
 * execute requests over one kept-alive connection, so the client's own CPU (request building,
 * response parsing) never runs on the API's event loop. Driven over IPC by search-http.ts.
 */
import http from 'node:http';

/** One timing job: the same requests (round-robin) `reps` times after a warm-up, stopping early past `budgetMs`. */
export interface TimingJob {
  readonly url: string;
  readonly token: string;
  readonly bodies: readonly string[];
  readonly reps: number;
  readonly budgetMs: number;
}

/** The answer to a job: the timings (ms), or the first failure. */
export type TimingAnswer = { readonly ms: number[]; readonly hits: number } | { readonly error: string };

/** Untimed requests before each job's timed ones. */
const WARM_UP = 50;

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function execute(url: string, token: string, body: string): Promise<{ hits: unknown[] }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) reject(new Error(`search over HTTP: ${res.statusCode} ${text.slice(0, 500)}`));
        else resolve(JSON.parse(text) as { hits: unknown[] });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function time(job: TimingJob): Promise<TimingAnswer> {
  const body = (i: number): string => job.bodies[i % job.bodies.length] as string;
  const { hits } = await execute(job.url, job.token, body(0));
  // A serving API is warm: its code compiled by earlier requests of every kind. These are the
  // first requests of their kind the server sees, so they are not timed.
  for (let i = 1; i < WARM_UP; i++) await execute(job.url, job.token, body(i));
  const ms: number[] = [];
  const deadline = performance.now() + job.budgetMs;
  for (let i = 0; i < job.reps && (i < 5 || performance.now() < deadline); i++) {
    const t = performance.now();
    await execute(job.url, job.token, body(i));
    ms.push(performance.now() - t);
  }
  return { ms, hits: hits.length };
}

process.on('message', (job: TimingJob) => {
  time(job).then(
    (answer) => process.send?.(answer),
    (e: unknown) => process.send?.({ error: e instanceof Error ? e.message : String(e) }),
  );
});
