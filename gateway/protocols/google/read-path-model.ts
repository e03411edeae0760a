/**
 * The model of a route that carries it in the path (`…/models/{model}:{method}`, the Gemini and
 * Antigravity v1beta routes). The segment is percent-decoded once and must then be a plain model
 * id, so that what the allow-list and the price lookup see is exactly what reaches the upstream:
 * the upstream path is rebuilt from the validated name, never copied from the request. Refused
 * (`TG_MODEL_NAME_INVALID`, 400): anything outside letters, digits, `.`, `-`, `_`, `@`, a first
 * character that is not a letter or digit (so no dot segment), more than 200 characters, and a
 * segment that does not decode.
 */
import { GatewayError } from '../../errors/gateway-error.js';

export interface PathModel {
  /** The validated model id, e.g. `gemini-2.5-flash`. */
  model: string;
  /** The method after the colon, e.g. `generateContent`; '' when the path names none. */
  method: string;
}

const modelPath = /\/models\/([^/:]+)(?::([A-Za-z]+))?$/;
const modelName = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,199}$/;

/** True for a model id that is safe as one path segment and in any upstream body. */
export function isValidModelName(name: string): boolean {
  return modelName.test(name);
}

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** Null when the path carries no model; throws `TG_MODEL_NAME_INVALID` for an unsafe one. */
export function readPathModel(path: string): PathModel | null {
  const match = modelPath.exec(path);
  if (match === null) return null;
  const model = decodeSegment(match[1] ?? '');
  if (model === null || !isValidModelName(model)) throw new GatewayError('TG_MODEL_NAME_INVALID');
  return { model, method: match[2] ?? '' };
}
