/**
 * The real OpenSearch of this test run (opensearch-setup.ts), for test files that need it: its
 * URL, or null after one loud skip line naming what is missing. Each file writes under its own
 * index prefix and deletes what it made.
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@opensearch-project/opensearch';
import { inject } from 'vitest';

/** The cluster URL, or null (after printing one SKIPPING line naming `what`). */
export function realOpenSearch(what: string): string | null {
  const url = inject('opensearchUrl');
  if (url === null) console.warn(`SKIPPING ${what}: ${inject('opensearchMissing')}`);
  return url;
}

/** A fresh index prefix: files never see each other's indexes. */
export function testPrefix(): string {
  return `syncdex-test-${randomUUID().slice(0, 8)}-`;
}

/** Deletes every index under `prefix`, by name (clusters may refuse wildcard deletes). */
export async function deleteIndexes(client: Client, prefix: string): Promise<void> {
  const made = await client.indices.get({ index: `${prefix}*` }).catch(() => null);
  for (const index of Object.keys(made?.body ?? {})) await client.indices.delete({ index }).catch(() => undefined);
}

/** What a test file made, released: its indexes deleted, its client closed (nothing when it never connected). */
export async function releaseOpenSearch(client: Client | undefined, prefix: string): Promise<void> {
  if (client === undefined) return;
  await deleteIndexes(client, prefix);
  await client.close();
}
