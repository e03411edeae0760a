/**
 * OpenAI remote compaction on the fake, in both forms the real API serves (wire-formats.md 2.6):
 *
 * - `POST /v1/responses/compact`: one JSON `response.compaction` object, `output` = the request's
 *   user messages followed by exactly one `compaction` item, and the pass's `usage`.
 * - The v2 form, a `POST /v1/responses` whose `input` ends with `{"type":"compaction_trigger"}`:
 *   streamed, exactly one `compaction` item in `response.output_item.added` / `.done` and a
 *   `response.completed` whose `output` is empty (usage on it as on any call); not streamed, a
 *   completed response whose `output` is that one item.
 *
 * The item's `encrypted_content` is opaque: here a deterministic string naming the model and how
 * many input items it stands for. Input tokens are counted as for every fake answer (body bytes
 * / 4); output tokens are the opaque content's length / 4.
 */
import { computeFakeAnswer } from './compute-fake-answer.js';
import { responsesUsage } from './answer-openai-responses.js';
import { bodyFields, type FakeCall } from './fake-call.js';
import { sendFrames, sendJson, sseFrame } from './write-fake-response.js';

const CREATED_AT = 1_768_560_502;

/** True when a Responses request's `input` ends with a `compaction_trigger` item. */
export function endsWithCompactionTrigger(input: unknown): boolean {
  if (!Array.isArray(input)) return false;
  const last: unknown = input.at(-1);
  return (
    typeof last === 'object' &&
    last !== null &&
    (last as { type?: unknown }).type === 'compaction_trigger'
  );
}

function inputItems(input: unknown): unknown[] {
  if (typeof input === 'string') {
    return [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }];
  }
  return Array.isArray(input) ? input : [];
}

function compactionOf(call: FakeCall): {
  model: string;
  item: Record<string, unknown>;
  usage: Record<string, unknown> | null;
  input: unknown[];
} {
  const body = bodyFields(call);
  const model = typeof body.model === 'string' ? body.model : 'gpt-fake';
  const input = inputItems(body.input).filter(
    (item) => (item as { type?: unknown } | null)?.type !== 'compaction_trigger',
  );
  const opaque = Buffer.from(`FAKE_COMPACTION ${model} items=${input.length}`).toString('base64');
  const answer = computeFakeAnswer({ model, bodyBytes: call.bodyBytes, behaviour: call.behaviour });
  const usage = responsesUsage({ ...answer, textTokens: Math.ceil(opaque.length / 4) });
  return {
    model,
    item: { type: 'compaction', id: 'cmp_fake_1', encrypted_content: opaque },
    usage: call.behaviour.omitUsage === true ? null : usage,
    input,
  };
}

function responseObject(
  compaction: ReturnType<typeof compactionOf>,
  state: { status: string; output: unknown[]; usage: unknown },
): Record<string, unknown> {
  return {
    id: 'resp_fake_compaction_1',
    object: 'response',
    created_at: CREATED_AT,
    status: state.status,
    model: compaction.model,
    error: null,
    incomplete_details: null,
    output: state.output,
    usage: state.usage,
    store: false,
  };
}

/** The v2 form: `/v1/responses` with a trailing `compaction_trigger`. */
export async function answerCompactionTrigger(call: FakeCall): Promise<void> {
  const compaction = compactionOf(call);
  if (bodyFields(call).stream !== true) {
    const body = responseObject(compaction, {
      status: 'completed',
      output: [compaction.item],
      usage: compaction.usage,
    });
    await sendJson(call.write, { status: 200, body });
    return;
  }
  let sequence = 0;
  const event = (data: Record<string, unknown>): string => {
    const frame = sseFrame({ ...data, sequence_number: sequence }, String(data.type));
    sequence += 1;
    return frame;
  };
  const started = responseObject(compaction, { status: 'in_progress', output: [], usage: null });
  const { item } = compaction;
  const frames = [
    event({ type: 'response.created', response: started }),
    event({ type: 'response.in_progress', response: started }),
    event({ type: 'response.output_item.added', output_index: 0, item }),
    event({ type: 'response.output_item.done', output_index: 0, item }),
  ];
  if (call.behaviour.streamError === true) {
    frames.push(
      event({ type: 'error', code: 'server_error', message: 'fake stream error', param: null }),
    );
  } else {
    const done = responseObject(compaction, {
      status: 'completed',
      output: [],
      usage: compaction.usage,
    });
    frames.push(event({ type: 'response.completed', response: done }));
  }
  await sendFrames(call.write, { contentType: 'text/event-stream', frames });
}

function isUserMessage(item: unknown): boolean {
  if (typeof item !== 'object' || item === null) return false;
  const fields = item as { type?: unknown; role?: unknown };
  return fields.role === 'user' && (fields.type === undefined || fields.type === 'message');
}

/** `POST /v1/responses/compact`: one JSON reply, never a stream. */
export async function answerResponsesCompact(call: FakeCall): Promise<void> {
  const compaction = compactionOf(call);
  const retained = compaction.input
    .filter(isUserMessage)
    .map((item) => ({ type: 'message', ...(item as Record<string, unknown>) }));
  await sendJson(call.write, {
    status: 200,
    body: {
      id: 'resp_fake_compact_1',
      object: 'response.compaction',
      created_at: CREATED_AT,
      output: [...retained, compaction.item],
      usage: compaction.usage,
    },
  });
}
