/**
 * A throw-away 3-master Redis Cluster on free ports: `redis-server --cluster-enabled yes` three
 * times, `redis-cli --cluster create`, then wait for `cluster_state:ok` on every node.
 */
import { execFile } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import type { RedisServer } from '../../support/redis-server.js';
import { startRedisServer } from '../../support/redis-server.js';

const run = promisify(execFile);

export interface RedisCluster {
  nodes: string[];
  stop(): Promise<void>;
}

async function waitForClusterOk(port: number): Promise<void> {
  const client = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await client.connect();
    for (let attempt = 0; attempt < 200; attempt++) {
      const info = await client.cluster('INFO');
      if (info.includes('cluster_state:ok')) return;
      await sleep(50);
    }
    throw new Error(`cluster node ${port} never reached cluster_state:ok`);
  } finally {
    client.disconnect();
  }
}

export async function startRedisCluster(): Promise<RedisCluster> {
  const servers: RedisServer[] = [];
  const stop = async () => {
    await Promise.all(servers.map((server) => server.stop()));
  };
  try {
    for (let index = 0; index < 3; index++) {
      servers.push(
        await startRedisServer({
          extraArgs: [
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            'nodes.conf',
            '--cluster-node-timeout',
            '2000',
          ],
        }),
      );
    }
    const nodes = servers.map((server) => `127.0.0.1:${server.port}`);
    await run(
      'redis-cli',
      ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes'],
      { timeout: 30_000 },
    );
    for (const server of servers) await waitForClusterOk(server.port);
    return { nodes, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
