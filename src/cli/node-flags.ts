import { setFlagsFromString } from 'node:v8';

/**
 * The V8 flags every syncdex process runs with. The shebang of bin/syncdex.mjs and the
 * Dockerfile's ENTRYPOINT repeat them (neither can import this); a unit test keeps them equal.
 *
 * - A 32 MB young-generation semi-space (V8's default grows to 16). A page waits in the worker
 *   through the writes ahead of it while the pages after it are read and derived: with a 4 MB
 *   nursery much of what it holds survived two scavenges, copied and then promoted (a
 *   60,000-record sync scavenged 918 times and promoted 826 MB; the V8 helper threads, which run
 *   most of that, used about 40 % of the worker's CPU). With 32 MB the worker's CPU per record
 *   fell from 131-142 to 101-105 µs and the sync ran about 8 % faster; peak RSS of the
 *   million-record sync 249 MB (bench/README.md, session 20). 64 MB: 88-94 µs, but 310 MB of
 *   RSS at 60,000 records already.
 * - Old space grown by half its live size after a full collection, not by V8's default of up to
 *   4×: pages that outlive the nursery leave their garbage in old space, and with the word index
 *   (hashes, groups, vocabulary per page) the worker's heap grew to 225 MB around 70 MB of live
 *   data: 342 MB peak RSS at a million records. With it: 197 MB, and the million-record sync took
 *   414 s against 421 s (bench/README.md, session 17).
 */
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32', '--heap-growing-percent=50'];

/**
 * V8 flags only `syncdex worker` sets, at its start (V8 reads them at each decision, so they hold
 * from then on). With the 32 MB young generation above, V8 starts incremental marking from a task
 * whenever the old generation's headroom is smaller than the young generation, which with
 * `--heap-growing-percent=50` and a worker's small live heap is nearly always: a 20,000-record
 * write path ran 16 full collections where 2-3 sufficed, and the GC helper threads used 20-28 µs
 * per record. Without the task, marking starts when the old generation reaches its limit: in
 * four alternated 40,000-record syncs the worker's CPU per record fell from a mean of 104.3 to
 * 91.9 µs, for 10-20 MB more peak RSS (278 MB at a million records; bench/README.md, session 30).
 * Only the worker was measured so: the API keeps V8's default.
 */
export const WORKER_V8_FLAGS: readonly string[] = ['--no-incremental-marking-task'];

/** Sets {@link WORKER_V8_FLAGS} in this process. */
export function applyWorkerV8Flags(): void {
  for (const flag of WORKER_V8_FLAGS) setFlagsFromString(flag);
}
