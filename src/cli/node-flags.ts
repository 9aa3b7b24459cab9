/**
 * The V8 flags every syncdex process runs with. The shebang of bin/syncdex.mjs and the
 * Dockerfile's ENTRYPOINT repeat them (neither can import this); a unit test keeps them equal.
 *
 * - A 4 MB young-generation semi-space (V8's default grows to 16): the worker allocates fast and
 *   short-lived (pages, records); the smaller nursery cut peak RSS from 312 to 263 MB at 200k
 *   records with the same throughput (bench/README.md, session 6).
 * - Old space grown by half its live size after a full collection, not by V8's default of up to
 *   4×: pages outlive a 4 MB nursery, so their garbage lands in old space, and with the word index
 *   (hashes, groups, vocabulary per page) the worker's heap grew to 225 MB around 70 MB of live
 *   data: 342 MB peak RSS at a million records. With it: 197 MB, and the million-record sync took
 *   414 s against 421 s (bench/README.md, session 17).
 */
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--heap-growing-percent=50'];
