/**
 * The Responses stream rebuilt as the Response it streamed: the `response` of its last
 * `response.completed`, `response.incomplete` or `response.failed` event. A stream cut before
 * that ends with the latest `response` it carried, its `output` the items done so far.
 */
import { objectOf, type ReplyReassembler } from '../../spec/reply-reassembler.js';

const FINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed']);

export function createResponsesStreamReassembler(): ReplyReassembler {
  let final: Record<string, unknown> | null = null;
  let latest: Record<string, unknown> | null = null;
  const items: unknown[] = [];
  let error: unknown;
  return {
    feed(payload) {
      const event = objectOf(payload);
      if (event === null) return;
      const type = typeof event.type === 'string' ? event.type : '';
      const response = objectOf(event.response);
      if (response !== null) {
        latest = response;
        if (FINAL_EVENTS.has(type)) final = response;
      }
      if (type === 'response.output_item.done') items.push(event.item);
      if (type === 'error') error = event;
    },
    result() {
      if (final !== null) return final;
      if (latest === null && items.length === 0 && error === undefined) return null;
      return {
        ...(latest ?? { object: 'response' }),
        output: items,
        ...(error === undefined ? {} : { error }),
      };
    },
  };
}
