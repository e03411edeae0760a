/**
 * The console inside `tollgate local`: the same server as `tollgate console`, with the control
 * plane's kubeconfig (cluster-admin, which may impersonate), the ledger the stack opened, sessions
 * in memory persisted to `<data>/console-sessions.json`, and the first `admin` user.
 */
import { join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import type { Registry } from 'prom-client';
import type { LedgerQueryable } from '../ledger/ledger-database.js';
import { build, type ConsoleApp } from '../console/server/app.js';
import { parseConsoleConfigObject } from '../console/server/console-config.js';
import { ensureLocalAdmin } from '../console/server/ensure-local-admin.js';
import { KubeClient } from '../console/server/kubernetes/kube-client.js';
import type { LiveCountersSource } from '../console/server/usage/live-key-counters.js';
import type { LogStream } from './logging/create-log-destination.js';

export interface LocalConsole {
  app: ConsoleApp;
  url: string;
  adminPassword: string | undefined;
}

export async function startLocalConsole(options: {
  dataDirectory: string;
  host: string;
  port: number;
  /**
   * Where people open the console. Empty (the default): its own listening address as a browser on
   * this machine opens it (`http://127.0.0.1:<port>`, `http://localhost:<port>`), once it listens.
   */
  publicOrigins?: readonly string[];
  kubeConfig: KubeConfig;
  ledger: LedgerQueryable;
  /** The stack's store: the dashboard and the keys list show its live counters. */
  store?: LiveCountersSource;
  /** The console's metrics join this registry (the gateway metrics port's). */
  registry?: Registry;
  operatorNamespace: string;
  timeZone: string;
  /** The local gateway's address, written into the keys' client configuration. */
  gatewayUrl?: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Where the console's log lines go; default pino's own JSON to stdout. */
  logStream?: LogStream | undefined;
}): Promise<LocalConsole> {
  const config = parseConsoleConfigObject({
    host: options.host,
    port: options.port,
    operatorNamespace: options.operatorNamespace,
    publicOrigins: [...(options.publicOrigins ?? [])],
    sessionFile: join(options.dataDirectory, 'console-sessions.json'),
    timeZone: options.timeZone,
    logLevel: options.logLevel,
    ...(options.gatewayUrl === undefined ? {} : { gatewayUrl: options.gatewayUrl }),
  });
  const adminPassword = await ensureLocalAdmin(new KubeClient(options.kubeConfig), {
    dataDirectory: options.dataDirectory,
    namespace: options.operatorNamespace,
    secretName: config.usersSecret,
  });
  const app = build(config, {
    kubeConfig: options.kubeConfig,
    ledger: options.ledger,
    ...(options.store === undefined ? {} : { store: options.store }),
    ...(options.registry === undefined ? {} : { registry: options.registry }),
    ...(options.logStream === undefined ? {} : { logStream: options.logStream }),
  });
  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('console not listening');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { app, url: `http://${host}:${address.port}`, adminPassword };
}
