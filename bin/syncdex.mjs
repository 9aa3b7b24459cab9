#!/usr/bin/env -S node --max-semi-space-size=4
// A 4 MB young-generation semi-space (V8's default grows to 16): the worker allocates fast and
// short-lived (pages, records), and the smaller nursery cut its peak RSS from 312 to 263 MB at
// 200k records with the same throughput (bench/README.md). The Dockerfile passes the same flag.
// The CLI runs the TypeScript sources through tsx's loader: no build step to forget.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
