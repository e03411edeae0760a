/**
 * Where a first-party call goes on Vertex AI, and the body it takes there (pure):
 * - the host: `<location>-aiplatform.googleapis.com` for a region, `aiplatform.googleapis.com` for
 *   `global`; the Upstream's `endpoint` (private endpoints, tests) replaces it;
 * - Anthropic Messages: `POST /v1/messages` -> `…/publishers/anthropic/models/<m>:rawPredict`, or
 *   `:streamRawPredict` for a streamed call (`stream` stays in the body), the body without `model`
 *   and with `anthropic_version: vertex-2023-10-16`; `POST /v1/messages/count_tokens` ->
 *   `…/publishers/anthropic/models/count-tokens:rawPredict` (the model stays in the body);
 * - Gemini: `/v1beta/models/<m>:<method>` -> `…/publishers/google/models/<m>:<method>`, the body
 *   unchanged; `alt=sse` is kept (it picks the stream's framing), no other query parameter is.
 */
import { GatewayError } from '../../errors/gateway-error.js';

export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

export interface VertexSettings {
  project: string;
  location: string;
  endpoint: string | null;
}

export interface VertexAddress {
  /** scheme://host[:port] */
  origin: string;
  /** The endpoint's path without a trailing slash ('' for none). */
  basePath: string;
}

export interface VertexRequestParts {
  path: string;
  body: Buffer;
}

const modelName = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,199}$/;
const geminiPath =
  /^\/v1beta\/models\/([^/:?]+):(generateContent|streamGenerateContent|countTokens)$/;

/** The origin and base path calls to the Upstream's project and location are sent to. */
export function vertexAddress(settings: VertexSettings): VertexAddress {
  if (settings.endpoint !== null && settings.endpoint !== '') {
    const withScheme = /^[a-z]+:\/\//i.test(settings.endpoint)
      ? settings.endpoint
      : `https://${settings.endpoint}`;
    const url = new URL(withScheme);
    return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, '') };
  }
  const host =
    settings.location === 'global'
      ? 'aiplatform.googleapis.com'
      : `${settings.location}-aiplatform.googleapis.com`;
  return { origin: `https://${host}`, basePath: '' };
}

function modelsPath(settings: VertexSettings, publisher: 'anthropic' | 'google'): string {
  // Domain-scoped project ids (`example.com:my-project`) keep their colon, as Google's paths do.
  const project = encodeURIComponent(settings.project).replaceAll('%3A', ':');
  const location = encodeURIComponent(settings.location);
  return `/v1/projects/${project}/locations/${location}/publishers/${publisher}/models/`;
}

function splitQuery(path: string): { pathname: string; query: string } {
  const mark = path.indexOf('?');
  return mark === -1
    ? { pathname: path, query: '' }
    : { pathname: path.slice(0, mark), query: path.slice(mark + 1) };
}

function readJsonObject(body: Buffer): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new GatewayError('TG_BAD_REQUEST', { cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new GatewayError('TG_BAD_REQUEST');
  }
  return value as Record<string, unknown>;
}

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

function checkedModel(model: unknown): string {
  if (typeof model !== 'string' || !modelName.test(model)) {
    throw new GatewayError('TG_MODEL_NAME_INVALID', {
      message:
        'The model name is not valid. Use a model id such as claude-sonnet-4-5@20250929 or gemini-2.5-flash: letters, digits, ".", "-", "_" and "@", starting with a letter or digit.',
      param: 'model',
    });
  }
  return model;
}

/** Anthropic Messages (and count_tokens) on `publishers/anthropic`. */
export function mapAnthropicCall(
  call: { path: string; body: Buffer; stream: boolean; model: string | null },
  settings: VertexSettings,
): VertexRequestParts {
  const { pathname } = splitQuery(call.path);
  const json = readJsonObject(call.body);
  const base = modelsPath(settings, 'anthropic');
  if (pathname === '/v1/messages/count_tokens') {
    checkedModel(json.model);
    json.anthropic_version = VERTEX_ANTHROPIC_VERSION;
    return { path: `${base}count-tokens:rawPredict`, body: Buffer.from(JSON.stringify(json)) };
  }
  if (pathname !== '/v1/messages') throw new GatewayError('TG_ROUTE_NOT_FOUND');
  const model = checkedModel(call.model ?? json.model);
  // Vertex refuses `model` in the body; `anthropic_version` is always Vertex's own.
  const body: Record<string, unknown> = { anthropic_version: VERTEX_ANTHROPIC_VERSION };
  for (const [name, value] of Object.entries(json)) {
    if (name !== 'model' && name !== 'anthropic_version') body[name] = value;
  }
  const method = call.stream ? 'streamRawPredict' : 'rawPredict';
  return { path: `${base}${model}:${method}`, body: Buffer.from(JSON.stringify(body)) };
}

/** Gemini generateContent, streamGenerateContent and countTokens on `publishers/google`. */
export function mapGeminiCall(
  call: { path: string; body: Buffer; model: string | null },
  settings: VertexSettings,
): VertexRequestParts {
  const { pathname, query } = splitQuery(call.path);
  const match = geminiPath.exec(pathname);
  if (match === null) throw new GatewayError('TG_ROUTE_NOT_FOUND');
  const model = checkedModel(call.model ?? decodeSegment(match[1] ?? ''));
  const method = match[2] ?? '';
  const alt = new URLSearchParams(query).get('alt');
  const suffix = alt === null ? '' : `?alt=${encodeURIComponent(alt)}`;
  return {
    path: `${modelsPath(settings, 'google')}${model}:${method}${suffix}`,
    body: call.body,
  };
}
