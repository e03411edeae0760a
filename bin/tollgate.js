#!/usr/bin/env node
// The `tollgate` command runs the compiled CLI in dist/ and only that. In a checkout with sources it
// first makes sure dist/ is not older than them: it rebuilds when TypeScript is installed and
// refuses otherwise (bin/ensure-fresh-build.js). The gateway's cluster workers skip the check: the
// primary made it.
import cluster from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { ensureFreshBuild } from './ensure-fresh-build.js';

if (cluster.isPrimary) {
  try {
    ensureFreshBuild(fileURLToPath(new URL('..', import.meta.url)), {
      log: (line) => process.stderr.write(`tollgate: ${line}\n`),
    });
  } catch (error) {
    process.stderr.write(`tollgate: ${error instanceof Error ? error.message : error}\n`);
    process.exit(1);
  }
}
await import(new URL('../dist/bin/main.js', import.meta.url).href);
