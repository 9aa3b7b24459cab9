/** Failing a run: the one way a run ends in `failed`, with its entity's state in step. */
import type { Kysely } from 'kysely';
import { AppError, errorLog } from '../errors.js';
import type { DB } from '../store/db.js';
import { markRunEnded } from '../store/entity-state-repo.js';
import { finishRun } from '../store/runs-repo.js';

/** The run a failure ends; with `attempt`, only while that execution still owns it. */
export interface FailedRunRef {
  readonly id: string;
  readonly connectorId: string;
  readonly entity: string;
  readonly attempt?: number;
}

/**
 * Records a failed run; the checkpoint stays, so a later retry or replay resumes from it. With
 * `attempt`, only while that execution still owns the run: a superseded one (its job redelivered
 * meanwhile) must not fail the live attempt. True when this call failed the run.
 */
export async function failRun(deps: { readonly db: Kysely<DB> }, run: FailedRunRef, e: unknown): Promise<boolean> {
  const err = e instanceof AppError ? e : new AppError('internal', 'internal error', { detail: e instanceof Error ? e.message : String(e) });
  // One transaction: nobody sees the run failed while its entity still says `updating`.
  return deps.db.transaction().execute(async (tx) => {
    // The run's error is for operators (admin API); the entity's last error is shown to tenants.
    const error = { ...errorLog(err), code: err.code, ...(err.upstreamStatus === undefined ? {} : { upstreamStatus: err.upstreamStatus }) };
    const ended = await finishRun(tx, run.id, 'failed', { error, ...(run.attempt === undefined ? {} : { attempt: run.attempt }) });
    // Cancelled or paused meanwhile: the operator's state stands.
    if (!ended) return false;
    await markRunEnded(tx, run.connectorId, run.entity, { ok: false, error: tenantMessage(err) });
    return true;
  });
}

/** What a tenant may read of a failure: an internal fault's own text can name our internals. */
function tenantMessage(err: AppError): string {
  return err.code === 'internal' ? 'internal error; operators see the details in the run' : err.message;
}
