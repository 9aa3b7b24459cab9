/**
 * Strict ISO 8601 instants. `new Date()` alone accepts `2024-02-30` (as March 1st) and many
 * non-ISO forms; a filter or a start date that silently means another day is worse than a 400.
 */

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** What {@link parseIsoInstant} found wrong, for the caller's message. */
export type IsoProblem = 'not_iso' | 'not_real';

/**
 * An ISO 8601 date (`2024-01-31`) or datetime (`2024-01-31T08:00:00Z`, offsets allowed) as a
 * Date; a datetime without an offset is taken as UTC. Returns the problem instead when the text
 * is not ISO 8601 or names no real calendar date/time.
 */
export function parseIsoInstant(raw: string): Date | IsoProblem {
  const text = raw.trim();
  const m = ISO_RE.exec(text);
  if (m === null) return 'not_iso';
  const [, y, mo, d, h = '00', mi = '00', s = '00', zone] = m;
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  const calendarOk = day.getUTCFullYear() === Number(y) && day.getUTCMonth() === Number(mo) - 1 && day.getUTCDate() === Number(d);
  if (!calendarOk || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return 'not_real';
  if (m[4] === undefined) return day;
  const iso = text.replace(' ', 'T');
  const ms = Date.parse(zone === undefined ? `${iso}Z` : iso.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(ms) ? 'not_real' : new Date(ms);
}
