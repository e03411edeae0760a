/**
 * An upstream policy's provider settings and its opened credential -> `ResolvedUpstream.provider`.
 * Cloud providers' credentials are sealed as the JSON of their credentials union (the operator's
 * `project-upstream-policy.ts`); they are checked here once per policy digest, never per call.
 */
import { z } from 'zod';
import type { UpstreamPolicy } from '../../store/store.js';
import type { ProviderSettings } from '../spec/resolved-upstream.js';

const text = z.string().min(1);

const awsCredentials = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('AWSAccessKey'),
    accessKeyId: text,
    secretAccessKey: text,
    sessionToken: text.nullable().default(null),
  }),
  z.object({ type: z.literal('AWSWebIdentity'), roleARN: text, tokenFile: text }),
]);

const gcpCredentials = z.discriminatedUnion('type', [
  z.object({ type: z.literal('GCPServiceAccount'), serviceAccountJson: text }),
  z.object({ type: z.literal('GCPWorkloadIdentity') }),
]);

const azureCredentials = z.discriminatedUnion('type', [
  z.object({ type: z.literal('APIKey'), apiKey: text }),
  z.object({ type: z.literal('AzureEntraID'), tenantID: text, clientID: text, clientSecret: text }),
]);

const DIRECT: ProviderSettings = Object.freeze({ kind: 'Direct' });

function parseCredentials<T>(schema: z.ZodType<T>, policy: UpstreamPolicy, plaintext: string): T {
  let json: unknown;
  try {
    json = JSON.parse(plaintext);
  } catch {
    json = undefined;
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    // The message names the upstream and the type only, never a value.
    throw new Error(
      `upstream ${policy.name}: the sealed ${policy.credentialType} credential is incomplete`,
    );
  }
  return parsed.data;
}

/** Throws when the sealed credential does not fit the provider (the upstream is then skipped). */
export function openProviderSettings(policy: UpstreamPolicy, plaintext: string): ProviderSettings {
  const provider = policy.provider;
  if (provider === undefined) return DIRECT;
  switch (provider.kind) {
    case 'AWSBedrock':
      return { ...provider, credentials: parseCredentials(awsCredentials, policy, plaintext) };
    case 'GCPVertexAI':
      return { ...provider, credentials: parseCredentials(gcpCredentials, policy, plaintext) };
    case 'AzureOpenAI':
      return { ...provider, credentials: parseCredentials(azureCredentials, policy, plaintext) };
  }
}
