/** Operator actions from the shell: cancel, pause, resume, resync, reset, reindex (src/app/operations.ts). */
import { cancelRun, pauseConnector, resetEntity, resumeConnector, resyncEntity } from '../../app/operations.js';
import { reindexEntity } from '../../app/reindex.js';
import { runSummary } from '../../api/views.js';
import { output, parse, positional } from '../args.js';
import { withDeps } from './context.js';

type Action = (argv: string[], json: boolean | undefined) => Promise<void>;

const say = (json: boolean | undefined, data: unknown, text: string) => output(json, data, () => text);

const ACTIONS: Record<string, Action> = {
  cancel: (args, json) =>
    withDeps(async (deps) => {
      const run = await cancelRun(deps, positional(args, 0, 'run'));
      say(json, runSummary(run), `run ${run.id} cancelled`);
    }),
  pause: (args, json) =>
    withDeps(async (deps) => {
      const id = positional(args, 0, 'connector');
      await pauseConnector(deps, id);
      say(json, { paused: id }, `connector ${id} paused: schedule removed, active runs cancelled`);
    }),
  resume: (args, json) =>
    withDeps(async (deps) => {
      const id = positional(args, 0, 'connector');
      await resumeConnector(deps, id);
      say(json, { resumed: id }, `connector ${id} resumed`);
    }),
  resync: (args, json) =>
    withDeps(async (deps) => {
      const run = await resyncEntity(deps, positional(args, 0, 'connector'), positional(args, 1, 'entity'));
      say(json, runSummary(run), `run ${run.id} queued: full read, cursor forgotten, data kept`);
    }),
  reset: (args, json) =>
    withDeps(async (deps) => {
      const { tombstoned, run } = await resetEntity(deps, positional(args, 0, 'connector'), positional(args, 1, 'entity'));
      say(json, { tombstoned, run: runSummary(run) }, `${tombstoned} records tombstoned; run ${run.id} queued`);
    }),
  reindex: (args, json) =>
    withDeps(async (deps) => {
      const result = await reindexEntity(deps, positional(args, 0, 'connector_type'), positional(args, 1, 'entity'));
      say(json, result, result.backend === 'opensearch' ? `reindexed into ${result.index}: ${result.shipped} changes from ${result.connectors} connectors` : `${result.note} (${result.shadows_updated} shadows updated)`);
    }),
};

/** A command per action: `syncdex cancel <run>`, `syncdex reset <connector> <entity>`, ... */
export function operatorCommand(name: keyof typeof ACTIONS): (argv: string[]) => Promise<number> {
  return async (argv) => {
    const p = parse(argv, {});
    await (ACTIONS[name] as Action)(p.positionals, p.values.json as boolean | undefined);
    return 0;
  };
}
