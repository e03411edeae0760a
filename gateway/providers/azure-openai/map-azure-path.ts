/**
 * The Azure OpenAI path for a first-party OpenAI path (`/v1/responses`, `/v1/chat/completions`,
 * `/v1/responses/compact`, with their query):
 *
 * - the v1 API (no `apiVersion`): `/openai/v1/...`, the model named in the body as sent;
 * - deployment paths (`apiVersion` set): Chat Completions at
 *   `/openai/deployments/<deployment>/chat/completions?api-version=<v>`, the deployment being the
 *   model as it goes upstream (after modelOverrides); every other path at `/openai/<rest>?api-version=<v>`
 *   (`/openai/responses`), where Azure reads the deployment from the body's `model`.
 */

export interface AzurePathInput {
  /** First-party path with query, starting with `/v1/`. */
  path: string;
  model: string | null;
  apiVersion: string | null;
}

const CHAT_COMPLETIONS = '/v1/chat/completions';

function withParameter(path: string, name: string, value: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(value)}`;
}

/** Throws when a deployment path needs a model the call does not name. */
export function mapAzurePath(input: AzurePathInput): string {
  const { path, apiVersion } = input;
  if (apiVersion === null) return `/openai${path}`;
  const query = path.indexOf('?');
  const bare = query === -1 ? path : path.slice(0, query);
  const rest = query === -1 ? '' : path.slice(query);
  if (bare === CHAT_COMPLETIONS) {
    if (input.model === null) {
      throw new Error('Azure OpenAI deployment paths need the model (the deployment name)');
    }
    const deployment = encodeURIComponent(input.model);
    return withParameter(
      `/openai/deployments/${deployment}/chat/completions${rest}`,
      'api-version',
      apiVersion,
    );
  }
  return withParameter(`/openai${bare.slice('/v1'.length)}${rest}`, 'api-version', apiVersion);
}

/** `https://r.openai.azure.com/` -> `https://r.openai.azure.com` (the CRD allows no path). */
export function azureOrigin(endpoint: string): string {
  return endpoint.endsWith('/') ? endpoint.slice(0, -1) : endpoint;
}
