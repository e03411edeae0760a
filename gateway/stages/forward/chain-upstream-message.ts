/**
 * Pure: the `response.create` message a turn sends on its upstream socket, from the turn's body
 * (the streamed `POST /v1/responses` body, with the full input: the gateway expands a client's
 * `previous_response_id` from its own history). The body's fields go as they are, less `stream`
 * and `background` (the socket streams), plus `type`. When the socket's last completed response
 * (its input then output items) is a prefix of the turn's input, item for item by JSON text, the
 * message chains: `previous_response_id` = that response's id and `input` = the items after the
 * prefix only (the shorter message the mode is for). Otherwise the full input goes, unchained.
 */
import type { UpstreamChain } from '../../upstreams/upstream-websockets.js';

export interface UpstreamMessage {
  /** The message's JSON text. */
  text: string;
  /** The same turn unchained (the full input): sent when the chained one is refused. */
  unchained: string | null;
  /** The turn's full input, each item as its JSON text (the next chain's prefix). */
  items: string[];
}

const notSent = new Set(['stream', 'background', 'previous_response_id', 'input']);

/** Null when the body is not a JSON object with a list (or string) input. */
export function chainUpstreamMessage(
  body: Buffer,
  chain: UpstreamChain | null,
): UpstreamMessage | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const fields = parsed as Record<string, unknown>;
  const input =
    typeof fields.input === 'string'
      ? [{ type: 'message', role: 'user', content: fields.input }]
      : fields.input;
  if (!Array.isArray(input)) return null;
  const items = input.map((item) => JSON.stringify(item));
  const rest: Record<string, unknown> = { type: 'response.create' };
  for (const [name, value] of Object.entries(fields)) {
    if (!notSent.has(name)) rest[name] = value;
  }
  const unchained = JSON.stringify({ ...rest, input });
  if (chain === null || !isPrefix(chain.items, items))
    return { text: unchained, unchained: null, items };
  const text = JSON.stringify({
    ...rest,
    previous_response_id: chain.id,
    input: input.slice(chain.items.length),
  });
  return { text, unchained, items };
}

function isPrefix(prefix: readonly string[], items: readonly string[]): boolean {
  if (prefix.length > items.length) return false;
  for (let index = 0; index < prefix.length; index++) {
    if (prefix[index] !== items[index]) return false;
  }
  return true;
}
