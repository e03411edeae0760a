/**
 * Kubernetes API calls over kept-alive connections. @kubernetes/client-node builds a new HTTPS agent
 * for every request, so each status patch or Secret creation paid a TLS handshake (on both ends);
 * a bulk import spent more time in handshakes than in the calls. This returns a view of the
 * KubeConfig whose agents are created once per set of TLS options and keep their connections
 * open. The caller's KubeConfig is left as it is.
 */
import type { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Cluster, KubeConfig } from '@kubernetes/client-node';

type AgentOptions = Record<string, unknown>;
type CreateAgent = (cluster: Cluster | null, options: AgentOptions) => HttpAgent | HttpsAgent;

const KEYS = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized'] as const;

function sameOptions(left: AgentOptions, right: AgentOptions): boolean {
  return KEYS.every((key) => {
    const a = left[key];
    const b = right[key];
    if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
    return a === b;
  });
}

export function reuseApiConnections(kubeConfig: KubeConfig, maxSockets = 32): KubeConfig {
  // A KubeConfig that brings its own agent (an in-process transport in `tollgate local`) keeps it.
  if (Object.prototype.hasOwnProperty.call(kubeConfig, 'createAgent')) return kubeConfig;
  const view = Object.create(kubeConfig) as KubeConfig;
  const original = (kubeConfig as unknown as { createAgent: CreateAgent }).createAgent;
  const agents: { server: string; options: AgentOptions; agent: HttpAgent | HttpsAgent }[] = [];
  const createAgent: CreateAgent = (cluster, options) => {
    // Proxies and plain HTTP keep the library's own agents.
    if (cluster === null || cluster.proxyUrl !== undefined || !cluster.server.startsWith('https')) {
      return original.call(view, cluster, options);
    }
    const found = agents.find(
      (entry) => entry.server === cluster.server && sameOptions(entry.options, options),
    );
    if (found !== undefined) return found.agent;
    const agent = new HttpsAgent({ ...options, keepAlive: true, maxSockets });
    agents.push({ server: cluster.server, options: { ...options }, agent });
    if (agents.length > 4) agents.shift()?.agent.destroy();
    return agent;
  };
  (view as unknown as { createAgent: CreateAgent }).createAgent = createAgent;
  return view;
}
