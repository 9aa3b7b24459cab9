/** The queue backends a test file runs on: both, or Postgres alone with one loud skip line naming Redis. */
import { inject } from 'vitest';

export function queueBackends(what: string): readonly ('postgres' | 'redis')[] {
  const redisMissing = inject('redisMissing');
  if (redisMissing === null) return ['postgres', 'redis'];
  console.warn(`SKIPPING ${what} on the Redis queue backend: ${redisMissing}`);
  return ['postgres'];
}
