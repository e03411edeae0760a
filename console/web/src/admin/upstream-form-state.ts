/**
 * The Upstream form (pure): its state from a spec, and the spec with the write-only credential
 * values from its state. A credential value is never read back: the form only knows whether the
 * spec names a Secret.
 */
import type { AdminWrite } from '../api/admin-api.js';
import {
  compact,
  integerValue,
  listOf,
  recordOf,
  textOf,
  type FormProblem,
} from './spec-values.js';

export type CredentialType = 'APIKey' | 'GoogleOAuth';

export interface ModelOverrideRow {
  name: string;
  upstreamModel: string;
}

export interface UpstreamForm {
  name: string;
  platform: string;
  baseURL: string;
  credentialType: CredentialType;
  /** The Secret the spec names (kept when no new value is typed). */
  secretName: string;
  /** APIKey: the key inside the Secret. */
  secretKey: string;
  /** APIKey: a new provider key (write-only). */
  apiKeyValue: string;
  clientID: string;
  tokenURL: string;
  projectID: string;
  /** GoogleOAuth: new values (write-only), both or neither. */
  refreshToken: string;
  clientSecret: string;
  maxConcurrentRequests: string;
  requestsPerMinute: string;
  modelOverrides: ModelOverrideRow[];
  /** OpenAI only: '' (the default, Translate), 'Translate' or 'Native'. */
  chatCompletions: string;
}

export function upstreamFormFrom(
  name: string,
  spec: Record<string, unknown> | undefined,
): UpstreamForm {
  const source = spec ?? {};
  const credentials = recordOf(source.credentials);
  const type: CredentialType = credentials.type === 'GoogleOAuth' ? 'GoogleOAuth' : 'APIKey';
  const apiKeyRef = recordOf(recordOf(credentials.apiKey).secretRef);
  const oauth = recordOf(credentials.googleOAuth);
  return {
    name,
    platform: textOf(source.platform),
    baseURL: textOf(source.baseURL),
    credentialType: type,
    secretName: type === 'APIKey' ? textOf(apiKeyRef.name) : textOf(recordOf(oauth.secretRef).name),
    secretKey: textOf(apiKeyRef.key),
    apiKeyValue: '',
    clientID: textOf(oauth.clientID),
    tokenURL: textOf(oauth.tokenURL),
    projectID: textOf(oauth.projectID),
    refreshToken: '',
    clientSecret: '',
    maxConcurrentRequests: textOf(source.maxConcurrentRequests),
    requestsPerMinute: textOf(source.requestsPerMinute),
    modelOverrides: listOf(source.modelOverrides).map((item) => ({
      name: textOf(recordOf(item).name),
      upstreamModel: textOf(recordOf(item).upstreamModel),
    })),
    chatCompletions: textOf(source.chatCompletions),
  };
}

/** Whether the spec read from the server names a credential Secret (the value is never shown). */
export function credentialIsSet(spec: Record<string, unknown> | undefined): boolean {
  const credentials = recordOf(spec?.credentials);
  const ref =
    credentials.type === 'GoogleOAuth'
      ? recordOf(recordOf(credentials.googleOAuth).secretRef)
      : recordOf(recordOf(credentials.apiKey).secretRef);
  return textOf(ref.name) !== '';
}

export function upstreamWriteFrom(
  form: UpstreamForm,
): { write: AdminWrite } | { problem: FormProblem } {
  const write: AdminWrite = { spec: {} };
  let credentials: Record<string, unknown> | undefined;
  if (form.credentialType === 'APIKey') {
    if (form.apiKeyValue !== '') write.apiKeyValue = form.apiKeyValue;
    if (form.secretName.trim() !== '') {
      credentials = {
        type: 'APIKey',
        apiKey: {
          secretRef: {
            name: form.secretName.trim(),
            key: form.secretKey.trim() === '' ? 'apiKey' : form.secretKey.trim(),
          },
        },
      };
    }
  } else {
    const typed = [form.refreshToken, form.clientSecret].filter((value) => value !== '').length;
    if (typed === 1) {
      return {
        problem: {
          field: 'googleOAuthSecret',
          message: 'Enter both the refresh token and the client secret, or neither.',
        },
      };
    }
    if (typed === 2) {
      write.googleOAuthSecret = {
        refreshToken: form.refreshToken,
        clientSecret: form.clientSecret,
      };
    }
    credentials = {
      type: 'GoogleOAuth',
      googleOAuth: compact({
        secretRef: form.secretName.trim() === '' ? undefined : { name: form.secretName.trim() },
        clientID: form.clientID.trim() === '' ? undefined : form.clientID.trim(),
        tokenURL: form.tokenURL.trim() === '' ? undefined : form.tokenURL.trim(),
        projectID: form.projectID.trim() === '' ? undefined : form.projectID.trim(),
      }),
    };
  }
  write.spec =
    compact({
      platform: form.platform,
      baseURL: form.baseURL.trim(),
      credentials,
      maxConcurrentRequests: integerValue(form.maxConcurrentRequests),
      requestsPerMinute: integerValue(form.requestsPerMinute),
      modelOverrides:
        form.modelOverrides.length > 0
          ? form.modelOverrides.map((row) => ({
              name: row.name.trim(),
              upstreamModel: row.upstreamModel.trim(),
            }))
          : undefined,
      chatCompletions:
        form.platform === 'OpenAI' && form.chatCompletions !== ''
          ? form.chatCompletions
          : undefined,
    }) ?? {};
  return { write };
}
