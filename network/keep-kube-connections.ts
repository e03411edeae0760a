/**
 * Connections to the Kubernetes API kept open between calls. @kubernetes/client-node (1.4) makes a
 * new agent for every call (`KubeConfig.createAgent`, reached from `applySecurityAuthentication`
 * for the generated clients and from `applyToHTTPSOptions` for watches and the console's calls),
 * and a new agent has no connection to reuse: each lease renewal, status write, read or console
 * request opened a TCP connection and made a TLS handshake, costing CPU on both ends (measured in
 * docs/benchmarks.md, "The operator's connections").
 *
 * `keepKubeConnections` gives a view of a KubeConfig whose calls share keep-alive agents: one per
 * distinct set of agent options (the server, the cluster's CA, the client certificate and key, the
 * timeout...), made by the client's own `createAgent` with `keepAlive` added, so proxies and
 * `skipTLSVerify` keep working as before. A kubeconfig whose client certificate is rotated (an
 * exec plugin's, read again on every call) gives new options and so a new agent; the least
 * recently made agent beyond `MAX_AGENTS` is let go (its idle connections closed at once, the busy
 * ones when their call ends). The caller's KubeConfig is left as it is.
 */
import { createHash, type Hash } from 'node:crypto';
import type { Agent } from 'node:http';
import type { Cluster, KubeConfig } from '@kubernetes/client-node';

type AgentOptions = Record<string, unknown>;
type CreateAgent = (cluster: Cluster | null, options: AgentOptions) => Agent;

/** Distinct option sets kept at once: one in steady state, a few while credentials rotate. */
export const MAX_AGENTS = 4;

function feed(hash: Hash, value: unknown): void {
  if (value === undefined || value === null) {
    hash.update('\u0000-');
  } else if (Buffer.isBuffer(value) || value instanceof Uint8Array) {
    hash.update(`\u0000b${String(value.length)}:`).update(value);
  } else if (Array.isArray(value)) {
    hash.update(`\u0000a${String(value.length)}:`);
    for (const one of value) feed(hash, one);
  } else if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([left], [right]) =>
      left < right ? -1 : left > right ? 1 : 0,
    );
    hash.update(`\u0000o${String(entries.length)}:`);
    for (const [name, one] of entries) {
      hash.update(`${name}=`);
      feed(hash, one);
    }
  } else {
    // A string, number or boolean; a function by its source (JSON.stringify gives it no text).
    const text = typeof value === 'function' ? value.toString() : JSON.stringify(value);
    hash.update(`\u0000${typeof value}${String(text.length)}:${text}`);
  }
}

/**
 * One digest of what makes two agents interchangeable: the cluster's address, proxy and TLS
 * settings and every agent option (key material is hashed, never kept as text).
 */
export function agentFingerprint(cluster: Cluster | null, options: AgentOptions): string {
  const hash = createHash('sha256');
  feed(hash, {
    server: cluster?.server,
    proxyUrl: cluster?.proxyUrl,
    skipTLSVerify: cluster?.skipTLSVerify,
    tlsServerName: cluster?.tlsServerName,
  });
  feed(hash, options);
  return hash.digest('hex');
}

/** Closes an agent's idle connections now and each busy one when its call ends. */
function letGo(agent: Agent): void {
  (agent as unknown as { keepAlive: boolean }).keepAlive = false;
  for (const sockets of Object.values(agent.freeSockets)) {
    for (const socket of sockets ?? []) socket.destroy();
  }
}

/** A view of `kubeConfig` whose API calls reuse connections (see the file's comment). */
export function keepKubeConnections(kubeConfig: KubeConfig): KubeConfig {
  const view = Object.create(kubeConfig) as KubeConfig;
  const original = (kubeConfig as unknown as { createAgent: CreateAgent }).createAgent;
  const agents = new Map<string, Agent>();
  const createAgent: CreateAgent = (cluster, options) => {
    const fingerprint = agentFingerprint(cluster, options);
    const kept = agents.get(fingerprint);
    if (kept !== undefined) return kept;
    const agent = original.call(view, cluster, { ...options, keepAlive: true });
    agents.set(fingerprint, agent);
    if (agents.size > MAX_AGENTS) {
      const [oldest] = agents;
      if (oldest !== undefined) {
        agents.delete(oldest[0]);
        letGo(oldest[1]);
      }
    }
    return agent;
  };
  (view as unknown as { createAgent: CreateAgent }).createAgent = createAgent;
  return view;
}
