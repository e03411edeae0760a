/**
 * Once per `vitest run`: a fresh build of dist/, which the tests that spawn `bin/tollgate.js` run
 * (rebuilt here when stale, so that no test races a rebuild), and a Redis for the tests.
 * `REDIS_URL` wins when set; otherwise a private `redis-server` on a free port. Tests read it with
 * `inject('redisUrl')` and keep to their own key prefix, so files can share one server.
 */
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { ensureFreshBuild } from '../../bin/ensure-fresh-build.js';
import { startRedisServer } from './redis-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  ensureFreshBuild(fileURLToPath(new URL('../..', import.meta.url)), {
    log: (line) => process.stderr.write(`global setup: ${line}\n`),
  });
  const fromEnvironment = process.env.REDIS_URL;
  if (fromEnvironment !== undefined && fromEnvironment !== '') {
    project.provide('redisUrl', fromEnvironment);
    return async () => {};
  }
  const server = await startRedisServer();
  project.provide('redisUrl', server.url);
  return () => server.stop();
}
