/**
 * Chat Completions passed through natively: a streamed reply carries usage only when the caller set
 * `stream_options.include_usage`. When it did not, the gateway asks the upstream for it (the one
 * body rewrite metering needs) and removes the usage chunk (`choices: []` with `usage`) from what the
 * caller receives, so the caller sees the stream it asked for. Every other byte passes unchanged.
 */
import type { ReplyTranslator } from '../protocol-adapter.js';
import { asRecord } from '../../metering/usage-report.js';

export interface ChatStreamUsagePlan {
  /** The body to send upstream: the original bytes unless usage had to be requested. */
  body: Buffer | null;
  /** True when the caller did not ask for usage, so its usage chunk must be stripped. */
  stripUsageChunk: boolean;
}

export function requestChatStreamUsage(request: {
  body: Buffer | null;
  json: unknown;
}): ChatStreamUsagePlan {
  const fields = asRecord(request.json);
  const unchanged = { body: request.body, stripUsageChunk: false };
  if (fields?.stream !== true) return unchanged;
  const options = asRecord(fields.stream_options);
  if (options?.include_usage === true) return unchanged;
  const rewritten = { ...fields, stream_options: { ...options, include_usage: true } };
  return { body: Buffer.from(JSON.stringify(rewritten), 'utf8'), stripUsageChunk: true };
}

const FRAME_END = /\r\n\r\n|\n\n|\r\r/g;

function isUsageChunk(frame: string): boolean {
  // Most frames are text deltas: they are kept without being split or parsed.
  if (!frame.includes('"usage"')) return false;
  const data = frame
    .split(/\r\n|\n|\r/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
    .join('\n');
  try {
    const chunk = asRecord(JSON.parse(data) as unknown);
    return (
      Array.isArray(chunk?.choices) &&
      chunk.choices.length === 0 &&
      chunk.usage !== undefined &&
      chunk.usage !== null
    );
  } catch {
    return false;
  }
}

/**
 * Drops the usage chunk from a Chat Completions SSE stream, frame by frame. Bytes are handled as
 * latin1 text (one char per byte), so every kept frame is re-emitted byte for byte. Each byte is
 * searched for a frame end once: a frame split over many chunks is not re-scanned from its start,
 * and a chunk of whole frames with no usage chunk in it is passed on as the same buffer.
 */
export function createChatUsageChunkStripper(): ReplyTranslator {
  let pending = '';
  /** Where the search for the next frame end resumes in `pending` (3 bytes back: `\r\n\r\n`). */
  let searched = 0;
  return {
    push(chunk) {
      const whole = pending === '';
      pending += chunk.toString('latin1');
      let output = '';
      let start = 0;
      let dropped = false;
      FRAME_END.lastIndex = Math.max(0, searched - 3);
      for (let match = FRAME_END.exec(pending); match !== null; match = FRAME_END.exec(pending)) {
        const end = match.index + match[0].length;
        const frame = pending.slice(start, end);
        if (isUsageChunk(frame)) dropped = true;
        else output += frame;
        start = end;
      }
      pending = pending.slice(start);
      searched = pending.length;
      if (whole && !dropped && pending === '') return chunk;
      return Buffer.from(output, 'latin1');
    },
    end() {
      const rest = pending;
      pending = '';
      searched = 0;
      return Buffer.from(isUsageChunk(rest) ? '' : rest, 'latin1');
    },
  };
}
