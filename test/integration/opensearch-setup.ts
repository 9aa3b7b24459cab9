/**
 * Provides OpenSearch to the integration tests: OPENSEARCH_URL when set, else a container when
 * Docker answers, else the local node (local-opensearch/, Java and Maven). Missing in CI is a
 * failure: the production index must be tested there; elsewhere it is one loud skip line.
 */
import type { TestProject } from 'vitest/node';
import { provideOpenSearch } from '../../src/services/local-opensearch.js';
import type { ProvidedService } from '../../src/services/local-services.js';

declare module 'vitest' {
  export interface ProvidedContext {
    opensearchUrl: string | null;
    opensearchMissing: string | null;
  }
}

let service: ProvidedService | undefined;

export async function setup(project: TestProject): Promise<void> {
  const os = await provideOpenSearch(process.env.OPENSEARCH_URL);
  if (!os.ok) {
    if (process.env.CI === 'true') throw new Error(`CI needs OpenSearch for its tests: ${os.reason}`);
    project.provide('opensearchUrl', null);
    project.provide('opensearchMissing', os.reason);
    process.stderr.write(`\n⚠ SKIPPING OpenSearch tests: ${os.reason}\n\n`);
    return;
  }
  service = os.service;
  project.provide('opensearchUrl', os.service.url);
  project.provide('opensearchMissing', null);
  process.stderr.write(`integration services: opensearch (${os.service.source}) at ${os.service.url}\n`);
}

export async function teardown(): Promise<void> {
  await service?.stop();
  service = undefined;
}
