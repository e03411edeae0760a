/**
 * keepKubeConnections against the local control plane over TLS, through a TCP proxy that counts
 * the connections: the client's own KubeConfig opens one per call; the kept view opens one for
 * calls in a row, and a watch keeps its own beside them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig, Watch, type Cluster } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startControlPlane,
  type ControlPlane,
} from '../../../control-plane/start-control-plane.js';
import {
  agentFingerprint,
  keepKubeConnections,
  MAX_AGENTS,
} from '../../../network/keep-kube-connections.js';
import { startCuttableProxy, type CuttableProxy } from '../../support/cuttable-tcp-proxy.js';

let folder: string;
let plane: ControlPlane;
let proxy: CuttableProxy;

/** A KubeConfig of the control plane's kubeconfig, its server moved to the proxy. */
function proxiedKubeConfig(): KubeConfig {
  const kubeConfig = new KubeConfig();
  const port = new URL(plane.apiUrl).port;
  kubeConfig.loadFromString(
    readFileSync(plane.kubeconfigPath, 'utf8').replace(
      `127.0.0.1:${port}`,
      `127.0.0.1:${String(proxy.port)}`,
    ),
  );
  expect(kubeConfig.getCurrentCluster()?.server).toBe(`https://127.0.0.1:${String(proxy.port)}`);
  return kubeConfig;
}

async function listNamespaces(kubeConfig: KubeConfig, times: number): Promise<string[]> {
  const api = kubeConfig.makeApiClient(CoreV1Api);
  const names: string[] = [];
  for (let call = 0; call < times; call++) {
    const list = await api.listNamespace();
    names.push(...list.items.map((item) => item.metadata?.name ?? ''));
  }
  return names;
}

type CreateAgent = (cluster: Cluster | null, options: Record<string, unknown>) => unknown;
const createAgentOf = (kubeConfig: KubeConfig): CreateAgent =>
  (kubeConfig as unknown as { createAgent: CreateAgent }).createAgent;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'keep-kube-connections-'));
  plane = await startControlPlane({ dataDirectory: folder, host: '127.0.0.1', port: 0 });
  proxy = await startCuttableProxy({ host: '127.0.0.1', port: Number(new URL(plane.apiUrl).port) });
});

afterAll(async () => {
  await proxy.close();
  await plane.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('keepKubeConnections', () => {
  it("opens one connection for calls in a row, where the client's own opens one per call", async () => {
    const before = proxy.accepted;
    const plain = await listNamespaces(proxiedKubeConfig(), 3);
    expect(plain).toContain('tollgate-system');
    expect(proxy.accepted - before).toBe(3);

    const kept = keepKubeConnections(proxiedKubeConfig());
    const between = proxy.accepted;
    const names = await listNamespaces(kept, 5);
    expect(names.filter((name) => name === 'default')).toHaveLength(5);
    expect(proxy.accepted - between).toBe(1);
  });

  it('keeps a watch on its own connection and the calls beside it on one more', async () => {
    const kept = keepKubeConnections(proxiedKubeConfig());
    const before = proxy.accepted;
    const events: string[] = [];
    const watching = await new Watch(kept).watch(
      '/api/v1/namespaces',
      {},
      (type, object: { metadata?: { name?: string } }) => {
        events.push(`${type} ${object.metadata?.name ?? ''}`);
      },
      () => undefined,
    );
    await listNamespaces(kept, 3);
    const deadline = Date.now() + 5_000;
    while (!events.includes('ADDED default') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    watching.abort();
    expect(events).toContain('ADDED default');
    expect(proxy.accepted - before).toBe(2);
  });

  it('makes one agent per set of options, and lets the oldest go beyond the limit', () => {
    const kept = keepKubeConnections(proxiedKubeConfig());
    const cluster = kept.getCurrentCluster();
    const createAgent = createAgentOf(kept);
    const first = createAgent(cluster, { timeout: 0 }) as { keepAlive: boolean };
    expect(first.keepAlive).toBe(true);
    expect(createAgent(cluster, { timeout: 0 })).toBe(first);
    for (let other = 1; other <= MAX_AGENTS; other++) createAgent(cluster, { timeout: other });
    expect(first.keepAlive).toBe(false);
    expect(createAgent(cluster, { timeout: 0 })).not.toBe(first);
  });

  it('fingerprints the options: same content same print, any difference another', () => {
    const cluster = { name: 'c', server: 'https://127.0.0.1:6443', skipTLSVerify: false };
    const options = { ca: Buffer.from('ca'), cert: Buffer.from('cert'), timeout: 1 };
    const print = agentFingerprint(cluster, options);
    expect(agentFingerprint(cluster, { ...options, ca: Buffer.from('ca') })).toBe(print);
    expect(agentFingerprint(cluster, { ...options, cert: Buffer.from('cert2') })).not.toBe(print);
    expect(agentFingerprint(cluster, { ...options, timeout: 2 })).not.toBe(print);
    expect(agentFingerprint({ ...cluster, server: 'https://127.0.0.1:6444' }, options)).not.toBe(
      print,
    );
    expect(agentFingerprint(cluster, { ...options, ca: [Buffer.from('ca')] })).not.toBe(print);
    expect(print).toMatch(/^[0-9a-f]{64}$/);
  });
});
