/**
 * For tests of waits Postgres cannot see: a stall there lasts until a 10-minute timeout, so the
 * test breaks it itself (ending the backends `terminate` selects) and fails instead of hanging.
 */
import type { RawBuilder } from 'kysely';
import type { Db } from '../../../src/store/db.js';

/** `work`'s result, or, after `ms`, runs `terminate` and rejects with `stalled`. */
export async function failIfStalled<T>(work: Promise<T>, opts: { ms: number; db: Db; terminate: RawBuilder<unknown>; stalled: string }): Promise<T> {
  let watchdog: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    watchdog = setTimeout(() => {
      void opts.terminate.execute(opts.db).catch(() => undefined).then(() => reject(new Error(opts.stalled)));
    }, opts.ms);
  });
  try {
    return await Promise.race([work, hung]);
  } finally {
    clearTimeout(watchdog);
  }
}
