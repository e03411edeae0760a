/**
 * Upstream `spec.provider` and its settings blocks: who serves the platform (the first-party API,
 * AWS Bedrock, Google Vertex AI, Azure OpenAI), which platforms each may serve and which
 * credential types each takes. The CEL rules here refuse the rest, naming the field.
 */
import type { CelRule } from './schema-builder.js';
import { enumOf, object, string, withDefault } from './schema-builder.js';

export const PROVIDERS = ['Direct', 'AWSBedrock', 'GCPVertexAI', 'AzureOpenAI'] as const;

export type Provider = (typeof PROVIDERS)[number];

const endpoint = (description: string) =>
  string({ description, maxLength: 2048, pattern: '^https?://[^\\s/]+/?$' });

export const providerFields = {
  provider: withDefault(
    enumOf(PROVIDERS, {
      description:
        'Who serves the platform: Direct (the first-party API at baseURL, the default), AWSBedrock (Anthropic), GCPVertexAI (Anthropic, Gemini) or AzureOpenAI (OpenAI).',
    }),
    'Direct',
  ),
  awsBedrock: object(
    {
      region: string({ maxLength: 64, minLength: 1, pattern: '^[a-z0-9-]+$' }),
      endpoint: endpoint(
        'Overrides https://bedrock-runtime.<region>.amazonaws.com (private endpoints, tests).',
      ),
    },
    { required: ['region'], description: 'provider AWSBedrock: where Bedrock is called.' },
  ),
  gcpVertexAI: object(
    {
      project: string({ maxLength: 128, minLength: 1, pattern: '^[-a-z0-9.:]+$' }),
      location: string({
        description: 'A region such as us-east5, or global.',
        maxLength: 64,
        minLength: 1,
        pattern: '^[a-z0-9-]+$',
      }),
      endpoint: endpoint(
        'Overrides https://<location>-aiplatform.googleapis.com (private endpoints, tests).',
      ),
    },
    {
      required: ['project', 'location'],
      description: 'provider GCPVertexAI: the project and location models are called in.',
    },
  ),
  azureOpenAI: object(
    {
      endpoint: endpoint('The resource, for example https://my-resource.openai.azure.com.'),
      apiVersion: string({
        description:
          'Absent: the v1 API (/openai/v1/...). Set: deployment paths (/openai/deployments/<deployment>/...?api-version=<apiVersion>), the deployment named through modelOverrides.',
        maxLength: 64,
        minLength: 1,
        pattern: '^[-a-zA-Z0-9.]+$',
      }),
    },
    { required: ['endpoint'], description: 'provider AzureOpenAI: the Azure OpenAI resource.' },
  ),
};

/** `self.provider`, reading an absent field as the default. */
const PROVIDER = "(has(self.provider) ? self.provider : 'Direct')";

const PLATFORMS: Record<Exclude<Provider, 'Direct'>, readonly string[]> = {
  AWSBedrock: ['Anthropic'],
  GCPVertexAI: ['Anthropic', 'Gemini'],
  AzureOpenAI: ['OpenAI'],
};

const CREDENTIALS: Record<Provider, readonly string[]> = {
  Direct: ['APIKey', 'GoogleOAuth'],
  AWSBedrock: ['AWSAccessKey', 'AWSWebIdentity'],
  GCPVertexAI: ['GCPServiceAccount', 'GCPWorkloadIdentity'],
  AzureOpenAI: ['APIKey', 'AzureEntraID'],
};

const BLOCKS: Record<Exclude<Provider, 'Direct'>, string> = {
  AWSBedrock: 'awsBedrock',
  GCPVertexAI: 'gcpVertexAI',
  AzureOpenAI: 'azureOpenAI',
};

const oneOf = (field: string, values: readonly string[]) =>
  values.map((value) => `${field} == '${value}'`).join(' || ');

const orList = (values: readonly string[]) =>
  values.length === 1 ? values[0] : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;

export const providerRules: CelRule[] = [
  ...Object.entries(PLATFORMS).map(([provider, platforms]) => ({
    rule: `${PROVIDER} != '${provider}' || ${oneOf('self.platform', platforms)}`,
    message: `provider ${provider} serves the ${orList(platforms)} platform only`,
    fieldPath: '.provider',
  })),
  ...Object.entries(CREDENTIALS).map(([provider, types]) => ({
    rule: `${PROVIDER} != '${provider}' || ${oneOf('self.credentials.type', types)}`,
    message: `provider ${provider} authenticates with ${orList(types)} credentials`,
    fieldPath: '.credentials.type',
  })),
  ...Object.entries(BLOCKS).map(([provider, block]) => ({
    rule: `has(self.${block}) == (${PROVIDER} == '${provider}')`,
    message: `${block} is set exactly when provider is ${provider}`,
    fieldPath: `.${block}`,
  })),
  {
    rule: `has(self.baseURL) == (${PROVIDER} == 'Direct')`,
    message:
      'baseURL is required for provider Direct, and applies to it only (cloud providers take their settings block, its endpoint overriding the address)',
    fieldPath: '.baseURL',
  },
];
