/**
 * `npx tsx bench/micro/capture-bench.ts`: what building one captured call costs the gateway at the
 * request's end (docs/captures.md "Hand-off"), in process: a request body redacted and cut
 * (`captureBody`, JSON bodies of 16 KiB, 64 KiB and 1 MiB with a few secrets, maxBytes 64 KiB),
 * and a streamed Messages reply of 200 text deltas reassembled and redacted (`reassembleReply` +
 * `captureBody`). The fastest of 15 batches is reported (the machine is shared), the median beside
 * it, in microseconds per call. Capture off costs none of this.
 */
import { captureBody } from '../../gateway/capture/capture-body.js';
import { reassembleReply } from '../../gateway/capture/reassemble-reply.js';
import { ReplyCollector } from '../../gateway/capture/reply-collector.js';
import { CaptureReplyBudget } from '../../gateway/capture/capture-reply-budget.js';
import { REPLY_REASSEMBLERS } from '../../gateway/protocols/registry.js';

const MAX_BYTES = 65_536;
const options = { maxBytes: MAX_BYTES, contentType: 'application/json' };

function requestBody(size: number): Buffer {
  const line = 'The quick brown fox jumps over the lazy dog, then reads the config file. ';
  const text = `${line.repeat(Math.ceil(size / line.length)).slice(0, size)}\nOPENAI_API_KEY=sk-proj-Zq3vN8xR2mK7pL4wT9yB6cH1jD5fG0sA AKIAIOSFODNN7EXAMPLE`;
  return Buffer.from(
    JSON.stringify({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: text }] }),
  );
}

function messagesStream(deltas: number): ReplyCollector {
  const frame = (type: string, data: object): string =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const frames = [
    frame('message_start', {
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        content: [],
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    }),
    frame('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ...Array.from({ length: deltas }, () =>
      frame('content_block_delta', {
        index: 0,
        delta: { type: 'text_delta', text: 'hello world ' },
      }),
    ),
    frame('content_block_stop', { index: 0 }),
    frame('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 400 } }),
    frame('message_stop', {}),
  ];
  const collector = new ReplyCollector(
    'anthropic-messages',
    16 * MAX_BYTES,
    new CaptureReplyBudget(16 * MAX_BYTES),
  );
  for (const text of frames) collector.add(Buffer.from(text));
  return collector;
}

function measure(name: string, run: () => unknown, rounds: number): void {
  const batches: number[] = [];
  for (let batch = 0; batch < 15; batch++) {
    const start = process.hrtime.bigint();
    for (let round = 0; round < rounds; round++) run();
    batches.push(Number(process.hrtime.bigint() - start) / 1000 / rounds);
  }
  batches.sort((a, b) => a - b);
  const fastest = batches[0] ?? 0;
  const median = batches[Math.floor(batches.length / 2)] ?? 0;
  console.log(
    `${name.padEnd(44)} ${fastest.toFixed(1).padStart(9)} us (median ${median.toFixed(1)})`,
  );
}

for (const size of [16_384, 65_536, 1_048_576]) {
  const body = requestBody(size);
  measure(
    `request body ${Math.round(body.length / 1024)} KiB`,
    () => captureBody(body, options),
    50,
  );
}
const stream = messagesStream(200);
measure(
  'Messages stream, 200 deltas, reassembled',
  () => {
    const { body } = reassembleReply(stream, REPLY_REASSEMBLERS['anthropic-messages']);
    return captureBody(body, options);
  },
  50,
);
