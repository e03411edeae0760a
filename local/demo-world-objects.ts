/**
 * The demo world of a first `tollgate local` start, as Kubernetes objects (pure): per platform a
 * credential Secret in the operator namespace, an Upstream pointing at the in-process simulator
 * and a Group named after the platform (`anthropic`, `openai`, `gemini`, `antigravity`), the
 * Vertex AI groups (demo-vertex-objects.ts) and the AWS Bedrock group `anthropic-bedrock`
 * (demo-bedrock-objects.ts), plus the namespace `demo` with an Account. Every object carries the `tollgate.dev/demo` label, which is
 * how later starts find the Upstreams to re-point at the simulator.
 */
import { PLATFORMS, type Platform } from '../crds/schema/resources.js';
import { demoBedrockObjects } from './demo-bedrock-objects.js';
import { demoVertexObjects } from './demo-vertex-objects.js';
import type { KubeManifest } from './kube-manifest.js';

export const DEMO_NAMESPACE = 'demo';
export const DEMO_LABEL = 'tollgate.dev/demo';
const API_VERSION = 'tollgate.dev/v1alpha1';

function metadata(name: string, namespace?: string): KubeManifest['metadata'] {
  return {
    name,
    ...(namespace === undefined ? {} : { namespace }),
    labels: { [DEMO_LABEL]: 'true' },
  };
}

export function demoGroupName(platform: Platform): string {
  return platform.toLowerCase();
}

export function demoUpstreamName(platform: Platform): string {
  return `demo-${platform.toLowerCase()}`;
}

/** The Upstream spec fields that name the simulator's address. */
export function simulatorFields(platform: Platform, simulatorUrl: string) {
  if (platform !== 'Antigravity') return { baseURL: simulatorUrl };
  return { baseURL: simulatorUrl, tokenURL: `${simulatorUrl}/oauth2/token` };
}

function credentialSecret(platform: Platform, operatorNamespace: string): KubeManifest {
  const oauth = platform === 'Antigravity';
  // Placeholders: the in-process simulator accepts any credential.
  const stringData = oauth
    ? { refreshToken: 'demo-refresh-token', clientSecret: 'demo-client-secret' }
    : { apiKey: `demo-${platform.toLowerCase()}-upstream-key` };
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: metadata(`${demoUpstreamName(platform)}-credentials`, operatorNamespace),
    type: 'Opaque',
    stringData,
  };
}

function upstream(platform: Platform, simulatorUrl: string): KubeManifest {
  const secretName = `${demoUpstreamName(platform)}-credentials`;
  const fields = simulatorFields(platform, simulatorUrl);
  const credentials =
    platform === 'Antigravity'
      ? {
          type: 'GoogleOAuth',
          googleOAuth: {
            secretRef: { name: secretName },
            clientID: 'demo-client-id',
            tokenURL: fields.tokenURL,
            projectID: 'demo-project',
          },
        }
      : { type: 'APIKey', apiKey: { secretRef: { name: secretName, key: 'apiKey' } } };
  return {
    apiVersion: API_VERSION,
    kind: 'Upstream',
    metadata: metadata(demoUpstreamName(platform)),
    spec: { platform, baseURL: fields.baseURL, credentials },
  };
}

function group(platform: Platform): KubeManifest {
  return {
    apiVersion: API_VERSION,
    kind: 'Group',
    metadata: metadata(demoGroupName(platform)),
    spec: {
      platform,
      description: `${platform} models through the built-in simulator (demo).`,
      upstreamRefs: [{ name: demoUpstreamName(platform), weight: 1, priority: 0 }],
    },
  };
}

/**
 * In creation order: namespace, Secrets, Upstreams, Groups, the Vertex AI demo, the AWS Bedrock
 * demo, Account.
 */
export function demoWorldObjects(options: {
  simulatorUrl: string;
  operatorNamespace: string;
}): KubeManifest[] {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: metadata(DEMO_NAMESPACE) },
    ...PLATFORMS.map((platform) => credentialSecret(platform, options.operatorNamespace)),
    ...PLATFORMS.map((platform) => upstream(platform, options.simulatorUrl)),
    ...PLATFORMS.map((platform) => group(platform)),
    ...demoVertexObjects(options),
    ...demoBedrockObjects({ ...options, labels: { [DEMO_LABEL]: 'true' } }),
    {
      apiVersion: API_VERSION,
      kind: 'Account',
      metadata: metadata('default', DEMO_NAMESPACE),
      spec: { displayName: 'Demo', creditUSD: '100' },
    },
  ];
}
