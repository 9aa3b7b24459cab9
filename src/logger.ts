import { pino, type Logger } from 'pino';

export type { Logger };

/** Paths pino replaces with [redacted]: credentials and tokens wherever they appear in a log object. */
export const REDACT_PATHS = [
  'credentials',
  '*.credentials',
  '*.*.credentials',
  'token',
  '*.token',
  'authorization',
  '*.authorization',
  '*.headers.authorization',
  'req.headers.authorization',
  'access_token',
  '*.access_token',
  'refresh_token',
  '*.refresh_token',
  'client_secret',
  '*.client_secret',
  'api_key',
  '*.api_key',
  'account_key',
  '*.account_key',
  'password',
  '*.password',
  'server_side_oauth_secret_id',
  '*.server_side_oauth_secret_id',
  'cookie',
  '*.cookie',
  '*.headers.cookie',
  '*.headers["set-cookie"]',
];

/** Creates the process logger: JSON lines, secrets redacted. `destination` lets tests capture output. */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const opts = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { service: 'syncdex' } };
  return destination === undefined ? pino(opts) : pino(opts, destination as never);
}
