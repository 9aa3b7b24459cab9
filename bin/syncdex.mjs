#!/usr/bin/env -S node --max-semi-space-size=32 --heap-growing-percent=50
// V8 flags for a small, steady heap: why each, in src/cli/node-flags.ts (the Dockerfile passes
// the same ones).
// The CLI runs the TypeScript sources through tsx's loader: no build step to forget.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
