/**
 * The Messages stream rebuilt as the Message it streamed: `message_start` gives the message,
 * `content_block_start` each block, the deltas their text, thinking, signature, citations and tool
 * input (the `input_json_delta` pieces parsed once the block stops), `message_delta` the stop
 * reason and final usage. An `error` event is kept as the message's `error`.
 */
import { objectOf, type ReplyReassembler } from '../../spec/reply-reassembler.js';

type Block = Record<string, unknown>;

function appendText(block: Block, field: string, piece: unknown): void {
  if (typeof piece !== 'string') return;
  block[field] = (typeof block[field] === 'string' ? block[field] : '') + piece;
}

/** Applies one `content_block_delta` to its block. */
function applyDelta(block: Block, delta: Record<string, unknown>, json: Map<Block, string>): void {
  switch (delta.type) {
    case 'text_delta':
      appendText(block, 'text', delta.text);
      break;
    case 'thinking_delta':
      appendText(block, 'thinking', delta.thinking);
      break;
    case 'signature_delta':
      appendText(block, 'signature', delta.signature);
      break;
    case 'input_json_delta':
      if (typeof delta.partial_json === 'string') {
        json.set(block, (json.get(block) ?? '') + delta.partial_json);
      }
      break;
    case 'citations_delta': {
      const citations = Array.isArray(block.citations) ? block.citations : [];
      citations.push(delta.citation);
      block.citations = citations;
      break;
    }
    default:
      break;
  }
}

/** A tool block's input from its pieces: parsed, or the text when it does not parse (cut off). */
function finishInput(block: Block, text: string): void {
  if (text === '') return;
  try {
    block.input = JSON.parse(text);
  } catch {
    block.input = text;
  }
}

export function createMessagesStreamReassembler(): ReplyReassembler {
  let message: Record<string, unknown> | null = null;
  const blocks: Block[] = [];
  const json = new Map<Block, string>();
  const stopped = new Set<Block>();
  const ensure = (): Record<string, unknown> => (message ??= { type: 'message', content: [] });
  return {
    feed(payload) {
      const event = objectOf(payload);
      if (event === null) return;
      const index = typeof event.index === 'number' ? event.index : -1;
      switch (event.type) {
        case 'message_start':
          message = { ...(objectOf(event.message) ?? {}), content: [] };
          break;
        case 'content_block_start': {
          const block = { ...(objectOf(event.content_block) ?? {}) };
          if (index >= 0) blocks[index] = block;
          break;
        }
        case 'content_block_delta': {
          const block = blocks[index];
          const delta = objectOf(event.delta);
          if (block !== undefined && delta !== null) applyDelta(block, delta, json);
          break;
        }
        case 'content_block_stop': {
          const block = blocks[index];
          if (block === undefined) break;
          stopped.add(block);
          finishInput(block, json.get(block) ?? '');
          break;
        }
        case 'message_delta': {
          const target = ensure();
          Object.assign(target, objectOf(event.delta) ?? {});
          const usage = objectOf(event.usage);
          if (usage !== null) target.usage = { ...(objectOf(target.usage) ?? {}), ...usage };
          break;
        }
        case 'error':
          ensure().error = event.error;
          break;
        default:
          break;
      }
    },
    result() {
      if (message === null && blocks.length === 0) return null;
      // Blocks whose stop never came (a cut stream) keep the input streamed so far.
      for (const [block, text] of json) if (!stopped.has(block)) finishInput(block, text);
      // A block whose start never came leaves a hole: left out.
      return { ...ensure(), content: blocks.filter(Boolean) };
    },
  };
}
