/** Rate-limit holds per connector (migration 0011), timed by the database's clock so every worker agrees. */
import { sql } from 'kysely';
import type { Db } from './db.js';
import { executeStatement } from './prepared-statements.js';

/** Holds every call of the connector for `ms` from now, unless a longer hold is already there. */
export async function holdConnector(db: Db, connectorId: string, ms: number): Promise<void> {
  await sql`
    insert into connector_rate_limits as l (connector_id, until)
    values (${connectorId}::uuid, clock_timestamp() + make_interval(secs => ${ms / 1000}))
    on conflict (connector_id) do update set until = greatest(l.until, excluded.until)`.execute(db);
}

/** Milliseconds the connector's calls must still wait; 0 when it is not held. Every page call asks. */
export async function connectorHoldMs(db: Db, connectorId: string): Promise<number> {
  const { rows } = await executeStatement<{ ms: string }>(db, HOLD_MS, [connectorId]);
  const row = rows[0];
  return row === undefined ? 0 : Math.max(0, Math.ceil(Number(row.ms)));
}

const HOLD_MS = 'select extract(epoch from until - clock_timestamp()) * 1000 as ms from connector_rate_limits where connector_id = $1';
