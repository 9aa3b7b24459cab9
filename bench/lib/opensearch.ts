/** The OpenSearch the bench measures: OPENSEARCH_URL, a container, or the local node; null after one loud skip line. */
import { Client } from '@opensearch-project/opensearch';
import { provideOpenSearch } from '../../src/services/local-opensearch.js';
import type { ProvidedService } from '../../src/services/local-services.js';

export interface BenchOpenSearch {
  readonly service: ProvidedService;
  readonly client: Client;
  /** Prefix of every index this bench run makes (all deleted at the end). */
  readonly prefix: string;
  close(): Promise<void>;
}

export async function benchOpenSearch(log: (s: string) => void): Promise<BenchOpenSearch | null> {
  const os = await provideOpenSearch(process.env.OPENSEARCH_URL, { heapMb: 1024 });
  if (!os.ok) {
    log(`SKIPPING OpenSearch bench figures: ${os.reason}`);
    return null;
  }
  const client = new Client({ node: os.service.url });
  const prefix = `bench-${Date.now().toString(36)}-`;
  return {
    service: os.service,
    client,
    prefix,
    close: async () => {
      const made = await client.indices.get({ index: `${prefix}*` }).catch(() => null);
      for (const index of Object.keys(made?.body ?? {})) await client.indices.delete({ index }).catch(() => undefined);
      await client.close();
      await os.service.stop();
    },
  };
}
