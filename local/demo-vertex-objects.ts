/**
 * The Google Vertex AI part of the demo world (pure but for the key pair): a service account key
 * made for the demo (its `token_uri` the simulator's token endpoint, which takes the JWT bearer
 * grant), the Upstreams `demo-vertex-anthropic` (Claude) and `demo-vertex-gemini` (Gemini) with
 * `provider: GCPVertexAI` and the simulator as their `endpoint`, and the Groups `anthropic-vertex`
 * and `gemini-vertex`. On later starts `vertexRepoints` says what to patch when the simulator's
 * address changed: each Upstream's endpoint and the key's `token_uri`.
 */
import { generateKeyPairSync } from 'node:crypto';
import type { KubeManifest } from './kube-manifest.js';

const API_VERSION = 'tollgate.dev/v1alpha1';
const DEMO_LABEL = 'tollgate.dev/demo';
export const DEMO_VERTEX_SECRET = 'demo-vertex-service-account';
const KEY_FIELD = 'serviceAccount.json';
const PROJECT = 'demo-project';

const VERTEX_DEMOS = [
  { platform: 'Anthropic', upstream: 'demo-vertex-anthropic', group: 'anthropic-vertex' },
  { platform: 'Gemini', upstream: 'demo-vertex-gemini', group: 'gemini-vertex' },
] as const;

export const DEMO_VERTEX_UPSTREAMS: readonly string[] = VERTEX_DEMOS.map((demo) => demo.upstream);

function metadata(name: string, namespace?: string): KubeManifest['metadata'] {
  return {
    name,
    ...(namespace === undefined ? {} : { namespace }),
    labels: { [DEMO_LABEL]: 'true' },
  };
}

/** A service account key as Google hands them out, its token endpoint the simulator's. */
export function demoServiceAccountKey(simulatorUrl: string): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return JSON.stringify({
    type: 'service_account',
    project_id: PROJECT,
    private_key_id: 'demo',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
    client_email: `tollgate-demo@${PROJECT}.iam.gserviceaccount.com`,
    token_uri: `${simulatorUrl}/oauth2/token`,
  });
}

function secret(simulatorUrl: string, operatorNamespace: string): KubeManifest {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: metadata(DEMO_VERTEX_SECRET, operatorNamespace),
    type: 'Opaque',
    stringData: { [KEY_FIELD]: demoServiceAccountKey(simulatorUrl) },
  };
}

/** In creation order: the Secret, the Upstreams, the Groups. */
export function demoVertexObjects(options: {
  simulatorUrl: string;
  operatorNamespace: string;
}): KubeManifest[] {
  const upstreams = VERTEX_DEMOS.map((demo) => ({
    apiVersion: API_VERSION,
    kind: 'Upstream',
    metadata: metadata(demo.upstream),
    spec: {
      platform: demo.platform,
      provider: 'GCPVertexAI',
      gcpVertexAI: { project: PROJECT, location: 'us-east5', endpoint: options.simulatorUrl },
      credentials: {
        type: 'GCPServiceAccount',
        gcpServiceAccount: { secretRef: { name: DEMO_VERTEX_SECRET, key: KEY_FIELD } },
      },
    },
  }));
  const groups = VERTEX_DEMOS.map((demo) => ({
    apiVersion: API_VERSION,
    kind: 'Group',
    metadata: metadata(demo.group),
    spec: {
      platform: demo.platform,
      description: `${demo.platform} models on Google Vertex AI, here the built-in simulator (demo).`,
      upstreamRefs: [{ name: demo.upstream, weight: 1, priority: 0 }],
    },
  }));
  return [secret(options.simulatorUrl, options.operatorNamespace), ...upstreams, ...groups];
}

/** A demo Upstream as listed (the fields re-pointing reads). */
export interface VertexUpstreamItem {
  metadata: { name: string };
  spec: { gcpVertexAI?: { endpoint?: string } };
}

/**
 * The merge patches that move the Vertex AI demo to the simulator's address of this run: none
 * when its Upstreams point there already.
 */
export function vertexRepoints(options: {
  items: readonly VertexUpstreamItem[];
  simulatorUrl: string;
  operatorNamespace: string;
}): { path: string; body: unknown }[] {
  const { simulatorUrl } = options;
  const stale = options.items.filter(
    (item) =>
      DEMO_VERTEX_UPSTREAMS.includes(item.metadata.name) &&
      item.spec.gcpVertexAI?.endpoint !== simulatorUrl,
  );
  if (stale.length === 0) return [];
  return [
    {
      path: `/api/v1/namespaces/${options.operatorNamespace}/secrets/${DEMO_VERTEX_SECRET}`,
      body: { stringData: { [KEY_FIELD]: demoServiceAccountKey(simulatorUrl) } },
    },
    ...stale.map((item) => ({
      path: `/apis/${API_VERSION}/upstreams/${item.metadata.name}`,
      body: { spec: { gcpVertexAI: { endpoint: simulatorUrl } } },
    })),
  ];
}
