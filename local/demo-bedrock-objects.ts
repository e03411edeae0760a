/**
 * The demo world's AWS Bedrock-backed group (pure): an Upstream `demo-anthropic-bedrock` with
 * `provider: AWSBedrock` whose `awsBedrock.endpoint` is the in-process simulator (which answers
 * Bedrock's InvokeModel paths and accepts any SigV4 signature, so placeholder keys do), its keys
 * Secret, and the Group `anthropic-bedrock`. First-party model names map to Bedrock inference
 * profile ids through `modelOverrides`, as a real Bedrock upstream needs.
 */
import type { KubeManifest } from './kube-manifest.js';

export const DEMO_BEDROCK_UPSTREAM = 'demo-anthropic-bedrock';
export const DEMO_BEDROCK_GROUP = 'anthropic-bedrock';
const API_VERSION = 'tollgate.dev/v1alpha1';

/** First-party names -> Bedrock cross-region inference profile ids. */
const MODEL_OVERRIDES = [
  ['claude-sonnet-4-6', 'us.anthropic.claude-sonnet-4-6-v1:0'],
  ['claude-sonnet-4-5-20250929', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0'],
  ['claude-opus-4-5-20251101', 'us.anthropic.claude-opus-4-5-20251101-v1:0'],
  ['claude-haiku-4-5-20251001', 'us.anthropic.claude-haiku-4-5-20251001-v1:0'],
] as const;

export function demoBedrockObjects(options: {
  simulatorUrl: string;
  operatorNamespace: string;
  labels: Record<string, string>;
}): KubeManifest[] {
  const secretName = `${DEMO_BEDROCK_UPSTREAM}-credentials`;
  return [
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: secretName, namespace: options.operatorNamespace, labels: options.labels },
      type: 'Opaque',
      // Placeholders: the simulator accepts any signature.
      stringData: {
        accessKeyId: 'AKIADEMODEMODEMODEMO',
        secretAccessKey: 'demo-secret-access-key',
      },
    },
    {
      apiVersion: API_VERSION,
      kind: 'Upstream',
      metadata: { name: DEMO_BEDROCK_UPSTREAM, labels: options.labels },
      spec: {
        platform: 'Anthropic',
        provider: 'AWSBedrock',
        awsBedrock: { region: 'us-east-1', endpoint: options.simulatorUrl },
        credentials: { type: 'AWSAccessKey', awsAccessKey: { secretRef: { name: secretName } } },
        modelOverrides: MODEL_OVERRIDES.map(([name, upstreamModel]) => ({ name, upstreamModel })),
      },
    },
    {
      apiVersion: API_VERSION,
      kind: 'Group',
      metadata: { name: DEMO_BEDROCK_GROUP, labels: options.labels },
      spec: {
        platform: 'Anthropic',
        description:
          'Anthropic models through AWS Bedrock, served by the built-in simulator (demo).',
        upstreamRefs: [{ name: DEMO_BEDROCK_UPSTREAM, weight: 1, priority: 0 }],
      },
    },
  ];
}
