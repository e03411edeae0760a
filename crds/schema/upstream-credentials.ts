/**
 * Upstream `spec.credentials`: a union on `type`, one member per credential kind. Secrets live in
 * the operator namespace; the operator reads them and seals their values in the policy store.
 */
import { objectName } from './common-fields.js';
import { enumOf, object, string } from './schema-builder.js';

export const CREDENTIAL_TYPES = [
  'APIKey',
  'GoogleOAuth',
  'AWSAccessKey',
  'AWSWebIdentity',
  'GCPServiceAccount',
  'GCPWorkloadIdentity',
  'AzureEntraID',
] as const;

export type CredentialType = (typeof CREDENTIAL_TYPES)[number];

const secretKeyRef = object(
  {
    name: objectName('Secret in the operator namespace.'),
    key: string({ maxLength: 253, minLength: 1, pattern: '^[-._a-zA-Z0-9]+$' }),
  },
  { required: ['name', 'key'] },
);

const secretRef = (description: string) =>
  object({ name: objectName(description) }, { required: ['name'] });

/** The member each type names (GCPWorkloadIdentity has none: the pod's identity is used). */
const MEMBERS: readonly (readonly [CredentialType, string])[] = [
  ['APIKey', 'apiKey'],
  ['GoogleOAuth', 'googleOAuth'],
  ['AWSAccessKey', 'awsAccessKey'],
  ['AWSWebIdentity', 'awsWebIdentity'],
  ['GCPServiceAccount', 'gcpServiceAccount'],
  ['AzureEntraID', 'azureEntraID'],
];

const exactlyTheMember = MEMBERS.map(
  ([type, member]) => `has(self.${member}) == (self.type == '${type}')`,
).join(' && ');

export const credentials = object(
  {
    type: enumOf(CREDENTIAL_TYPES, { description: 'Which credential member is set.' }),
    apiKey: object(
      { secretRef: secretKeyRef },
      { required: ['secretRef'], description: 'An API key read from a Secret.' },
    ),
    googleOAuth: object(
      {
        secretRef: secretRef('Secret holding refreshToken and clientSecret.'),
        clientID: string({ maxLength: 512, minLength: 1 }),
        tokenURL: string({ maxLength: 2048, pattern: '^https?://' }),
        projectID: string({ maxLength: 256, minLength: 1 }),
      },
      {
        required: ['secretRef', 'clientID', 'tokenURL', 'projectID'],
        description: 'A Google OAuth refresh token exchanged for access tokens.',
      },
    ),
    awsAccessKey: object(
      {
        secretRef: secretRef(
          'Secret holding accessKeyId and secretAccessKey (and optionally sessionToken).',
        ),
      },
      { required: ['secretRef'], description: 'Static AWS keys, requests signed with SigV4.' },
    ),
    awsWebIdentity: object(
      {
        roleARN: string({ maxLength: 2048, minLength: 20, pattern: '^arn:aws[-a-z]*:iam::' }),
        tokenFile: string({
          description: 'The projected service account token, as EKS mounts it.',
          maxLength: 4096,
          pattern: '^/',
        }),
      },
      {
        required: ['roleARN', 'tokenFile'],
        description: 'A role assumed with STS AssumeRoleWithWebIdentity from a token file.',
      },
    ),
    gcpServiceAccount: object(
      { secretRef: secretKeyRef },
      {
        required: ['secretRef'],
        description: 'A service account JSON key read from a Secret (JWT bearer grant).',
      },
    ),
    azureEntraID: object(
      {
        tenantID: string({ maxLength: 256, minLength: 1, pattern: '^[-.a-zA-Z0-9]+$' }),
        clientID: string({ maxLength: 256, minLength: 1 }),
        secretRef: secretRef('Secret holding clientSecret.'),
      },
      {
        required: ['tenantID', 'clientID', 'secretRef'],
        description: 'A Microsoft Entra ID app registration (client credentials grant).',
      },
    ),
  },
  {
    required: ['type'],
    rules: [
      {
        rule: exactlyTheMember,
        message: `set exactly the member named by type (${MEMBERS.map(([type, member]) => `${member} for ${type}`).join(', ')}; none for GCPWorkloadIdentity)`,
      },
    ],
  },
);
