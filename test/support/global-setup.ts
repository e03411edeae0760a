/**
 * Once per `vitest run`: a Redis for the tests. `REDIS_URL` wins when set; otherwise a private
 * `redis-server` on a free port. Tests read it with `inject('redisUrl')` and keep to their own
 * key prefix, so files can share one server.
 */
import type { TestProject } from 'vitest/node';
import { startRedisServer } from './redis-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const fromEnvironment = process.env.REDIS_URL;
  if (fromEnvironment !== undefined && fromEnvironment !== '') {
    project.provide('redisUrl', fromEnvironment);
    return async () => {};
  }
  const server = await startRedisServer();
  project.provide('redisUrl', server.url);
  return () => server.stop();
}
