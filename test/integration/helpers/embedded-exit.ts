/**
 * Child-process fixture: starts the local Postgres and prints its url and source, then either
 * stops it and lets the process end by itself with exit code 3 (`stop`), or exits with code 3
 * leaving it running (`abandon`).
 */
import { providePostgres } from '../../../src/services/local-services.js';

const pg = await providePostgres(undefined);
process.stdout.write(`${JSON.stringify({ url: pg.url, source: pg.source })}\n`);
if (process.argv[2] === 'stop') {
  await pg.stop();
  process.exitCode = 3;
} else {
  process.exit(3);
}
