/**
 * A test file's real store (a harness without a worker) beside a recording OpenSearch: a fake
 * HTTP server answering with `answer`, so the real OpenSearch client and backend run against it.
 * Both open before the file's tests and close after them.
 */
import { afterAll, beforeAll } from 'vitest';
import { OpenSearchBackend } from '../../../src/search/opensearch/opensearch-backend.js';
import { fakeOpenSearch, type FakeOpenSearch, type Recorded, type Reply } from '../../unit/search/opensearch/fake-http.js';
import { startHarness, type Harness } from './harness.js';

/** The harness and fake server of {@link recordingOpenSearch}; read them inside tests only. */
export interface RecordingOpenSearch {
  readonly h: Harness;
  readonly os: FakeOpenSearch;
  /** An OpenSearch backend on the fake server that retries once and never sleeps. */
  backend(): OpenSearchBackend;
}

export function recordingOpenSearch(answer: (req: Recorded) => Reply | Promise<Reply>, setup?: (h: Harness) => void): RecordingOpenSearch {
  let h: Harness | undefined;
  let os: FakeOpenSearch | undefined;
  beforeAll(async () => {
    h = await startHarness({ worker: false });
    setup?.(h);
    os = await fakeOpenSearch(answer);
  });
  afterAll(async () => {
    await os?.close();
    await h?.close();
  });
  return {
    get h() {
      return h as Harness;
    },
    get os() {
      return os as FakeOpenSearch;
    },
    backend: () => new OpenSearchBackend({ client: (os as FakeOpenSearch).client, backoffMs: 1, maxRetries: 1, sleep: async () => undefined }),
  };
}
