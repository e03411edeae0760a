/**
 * A private PostgreSQL server for tests that stop and restart it: `initdb` into a temporary folder
 * and `pg_ctl` on a free port (the machine's shared server is never stopped). As root, the server
 * runs as the `postgres` user, which PostgreSQL requires.
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../redis-server.js';

const run = promisify(execFile);

function binDir(): string {
  for (const version of ['17', '16', '15', '14']) {
    const dir = `/usr/lib/postgresql/${version}/bin`;
    if (existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql');
}

export interface PostgresInstance {
  /** URL of the `postgres` maintenance database. */
  maintenanceUrl: string;
  start(): Promise<void>;
  /** Fast shutdown: open connections are ended. */
  stop(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startPostgresInstance(): Promise<PostgresInstance> {
  const bin = binDir();
  const root = mkdtempSync(join(tmpdir(), 'tollgate-pg-'));
  const dataDir = join(root, 'data');
  const asRoot = userInfo().uid === 0;
  if (asRoot) chownSync(root, ...(await postgresIds()));
  const pgRun = (command: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', join(bin, command), ...args])
      : run(join(bin, command), args);
  await pgRun('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  const port = await freePort();
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = async () => {
    await pgRun('pg_ctl', ['-D', dataDir, '-o', options, '-l', join(root, 'log'), '-w', 'start']);
  };
  const stop = async () => {
    await pgRun('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
  };
  await start();
  return {
    maintenanceUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy: async () => {
      await stop().catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

async function postgresIds(): Promise<[number, number]> {
  const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
  const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
  return [uid, gid];
}
