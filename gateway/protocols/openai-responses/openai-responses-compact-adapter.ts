/**
 * `POST /v1/responses/compact`, OpenAI remote compaction (wire-formats.md section 2.6): passed
 * through to the upstream's own `/v1/responses/compact` as a Responses call is (model in the JSON
 * body, Bearer credential, the raw bytes unless a model override rewrites them). The reply is one
 * JSON `response.compaction` object whose top-level `usage` the Responses usage reader meters, so
 * it is billed like any call. The endpoint does not stream: the reply is planned as a whole JSON
 * body whatever the request says (an upstream that answers with events is still metered by its
 * content type).
 *
 * An upstream that does not serve the path is answered `TG_COMPACTION_UNSUPPORTED` (501) in the
 * OpenAI shape instead of its own 404 page: see `isCompactionMissing`.
 */
import { passBytes } from '../../bytes/translate-reply-bytes.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { ReplyTranslator, RequestAdapter } from '../../spec/protocol-adapter.js';
import { openAIResponsesAdapter } from './openai-responses-adapter.js';

const MISSING_ROUTE_STATUSES = new Set([404, 405, 501]);

function errorCodeOf(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  return (error as { code?: unknown }).code;
}

/**
 * True when an upstream's error reply says it has no compaction endpoint (pure): a 404, 405 or 501
 * whose body names no error code. OpenAI's own unknown path is a 404 `Invalid URL (POST …)` with
 * `code: null`, a web framework's is `Not Found` text or `{"detail":"Not Found"}`; a 404 with a
 * code (`model_not_found`) is the upstream's answer about the request and passes on as sent.
 */
export function isCompactionMissing(status: number, bytes: Buffer): boolean {
  if (!MISSING_ROUTE_STATUSES.has(status)) return false;
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return true;
  }
  return typeof errorCodeOf(body) !== 'string';
}

/** An error reply, held whole; a missing endpoint becomes the catalogue's refusal at its end. */
function refuseMissingCompaction(status: number): ReplyTranslator {
  const chunks: Buffer[] = [];
  return {
    push(chunk) {
      chunks.push(chunk);
      return Buffer.alloc(0);
    },
    end() {
      const bytes = Buffer.concat(chunks);
      if (isCompactionMissing(status, bytes)) throw new GatewayError('TG_COMPACTION_UNSUPPORTED');
      return bytes;
    },
  };
}

export const openAIResponsesCompactAdapter: RequestAdapter = {
  ...openAIResponsesAdapter,
  isStream: () => false,
  streamError: () => null,
  translateReply: (_context, reply) =>
    reply.status >= 400 ? refuseMissingCompaction(reply.status) : passBytes(),
};
