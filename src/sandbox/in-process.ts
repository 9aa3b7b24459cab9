/**
 * The sandbox as a {@link ConnectorRuntime} without HTTP: unit tests and tools run the planner's
 * requests against it. Errors come out as the HTTP client would raise them (status and message).
 */
import type { ConnectorRuntime, RuntimeCall, RuntimePage } from '../connectors/runtime-client.js';
import { AppError, isAppError } from '../errors.js';
import type { Sandbox } from './sandbox.js';

const STATUS: Record<string, number> = { invalid_request: 400, unauthorized: 401, forbidden: 403, not_found: 404 };

export class InProcessRuntime implements ConnectorRuntime {
  /** Every call made, in order (tests inspect the params the planner sent). */
  readonly calls: RuntimeCall[] = [];

  constructor(private readonly sandbox: Sandbox) {}

  async execute(call: RuntimeCall): Promise<RuntimePage> {
    this.calls.push(call);
    try {
      const page = this.sandbox.execute({ connector_type: call.connectorType, credentials: call.credentials, entity: call.entity, action: call.action, params: call.params });
      // Through JSON, as over the wire: no shared object identity, no undefined values.
      return JSON.parse(JSON.stringify(page)) as RuntimePage;
    } catch (e) {
      if (!isAppError(e)) throw e;
      const status = STATUS[e.code] ?? 500;
      throw new AppError('upstream_error', `upstream ${status}: ${e.message}`, { upstreamStatus: status, retryable: status >= 500, ...(e.path === undefined ? {} : { path: e.path }) });
    }
  }
}
