/**
 * `npx tsx bench/micro/sse-meter-bench.ts [label] [--only=<text>] [--sizes=whole,7]`: nanoseconds per
 * event spent by the metering of a streamed reply, in process, no network: the stream tap (framing,
 * payload parsing, the usage accumulator) for Chat Completions, Responses, Messages, Gemini (SSE
 * with CRLF frames, and the streamed JSON array) and Antigravity streams of 20 text deltas plus
 * their usage events, the Chat usage-chunk stripper alone, and a native Chat stream through both the
 * tap and the stripper (what a caller that did not ask for usage costs). Each stream is fed in
 * network-sized chunks (one event per chunk) and cut into 7-byte pieces (events split across
 * chunks); `--sizes` picks other piece sizes, `--only` the cases whose name contains the text. The
 * fastest of 15 batches of 300 streams is reported (the machine is shared), the median beside it;
 * `--batches=<n> --rounds=<n>` change both (more, shorter batches find a quiet moment more often on a
 * loaded machine). Prints one line per case and writes `bench/results/hot-path/sse-meter-<label>.json`
 * with the run's facts (describe-bench-facts.ts), then rebuilds the summaries.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createStreamTap, sharesFraming } from '../../gateway/bytes/create-stream-tap.js';
import { createChatUsageChunkStripper, USAGE_READERS } from '../../gateway/protocols/registry.js';
import { describeBenchFacts } from '../support/describe-bench-facts.js';
import { updateBenchSummaries } from '../support/update-bench-summaries.js';

const facts = describeBenchFacts('bench/micro/sse-meter-bench.ts');
const flags = process.argv.slice(2).filter((arg) => arg.startsWith('--'));
const label = process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 'run';
const flag = (name: string): string | undefined =>
  flags.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const only = flag('only');
const sizes = (flag('sizes') ?? 'whole,7')
  .split(',')
  .map((size) => (size === 'whole' ? null : Number(size)));
const batchCount = Number(flag('batches') ?? 15);
const rounds = Number(flag('rounds') ?? 300);
const DELTAS = 20;
const text = 'hello ';

// With usage asked for (`stream_options.include_usage`, which the gateway adds), every chunk
// carries `"usage":null` until the usage chunk.
const chatChunk = (delta: object): string =>
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: null }], usage: null })}\n\n`;
const chatEvents = [
  chatChunk({ role: 'assistant', content: '' }),
  ...Array.from({ length: DELTAS }, () => chatChunk({ content: text })),
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-4o-mini', choices: [], usage: { prompt_tokens: 12, completion_tokens: 20, total_tokens: 32 } })}\n\n`,
  'data: [DONE]\n\n',
];
const named = (type: string, data: object): string =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const responsesEvents = [
  named('response.created', {
    response: { id: 'resp_1', model: 'gpt-4o-mini', status: 'in_progress' },
  }),
  ...Array.from({ length: DELTAS }, (_, index) =>
    named('response.output_text.delta', {
      item_id: 'msg_1',
      output_index: 0,
      content_index: 0,
      delta: text,
      sequence_number: index,
    }),
  ),
  // Real streams repeat the whole text in the closing events of the part and the item.
  named('response.output_text.done', {
    item_id: 'msg_1',
    output_index: 0,
    content_index: 0,
    text: text.repeat(DELTAS),
  }),
  named('response.content_part.done', {
    item_id: 'msg_1',
    output_index: 0,
    content_index: 0,
    part: { type: 'output_text', text: text.repeat(DELTAS), annotations: [] },
  }),
  named('response.output_item.done', {
    output_index: 0,
    item: {
      id: 'msg_1',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: text.repeat(DELTAS), annotations: [] }],
    },
  }),
  named('response.completed', {
    response: {
      id: 'resp_1',
      model: 'gpt-4o-mini',
      status: 'completed',
      usage: { input_tokens: 12, output_tokens: 20, total_tokens: 32 },
    },
  }),
];
const messagesEvents = [
  named('message_start', {
    message: {
      id: 'msg_1',
      model: 'claude-sonnet-4',
      usage: { input_tokens: 12, output_tokens: 1 },
    },
  }),
  named('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  named('ping', {}),
  ...Array.from({ length: DELTAS }, () =>
    named('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
  ),
  named('content_block_stop', { index: 0 }),
  named('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 20 } }),
  named('message_stop', {}),
];

const geminiChunk = (index: number, last: boolean): object => ({
  candidates: [
    {
      content: { role: 'model', parts: [{ text }] },
      ...(last ? { finishReason: 'STOP' } : {}),
      index: 0,
    },
  ],
  usageMetadata: {
    promptTokenCount: 12,
    candidatesTokenCount: index + 1,
    totalTokenCount: 13 + index,
  },
  modelVersion: 'gemini-2.5-flash',
  responseId: 'bench-1',
});
const geminiChunks = Array.from({ length: DELTAS }, (_, index) =>
  geminiChunk(index, index === DELTAS - 1),
);
// Google frames its SSE with CRLF; the JSON array (no `alt=sse`) is pretty-printed.
const geminiSseEvents = geminiChunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`);
const geminiArrayEvents = geminiChunks.map(
  (chunk, index) =>
    `${index === 0 ? '[' : ',\r\n'}${JSON.stringify(chunk, null, 2)}${index === DELTAS - 1 ? ']' : ''}`,
);
const antigravityEvents = geminiChunks.map(
  (chunk) => `data: ${JSON.stringify({ response: chunk, traceId: 'bench-trace' })}\n\n`,
);

function pieces(events: string[], size: number | null): Buffer[] {
  if (size === null) return events.map((event) => Buffer.from(event));
  const all = Buffer.from(events.join(''));
  const out: Buffer[] = [];
  for (let start = 0; start < all.length; start += size)
    out.push(all.subarray(start, start + size));
  return out;
}

function measure(
  name: string,
  events: string[],
  run: (chunks: Buffer[]) => unknown,
  size: number | null,
) {
  if (only !== undefined && !name.includes(only)) return [];
  const chunks = pieces(events, size);
  const check = run(chunks);
  // The machine is shared: the fastest batch is the figure, the median is shown beside it.
  for (let index = 0; index < 500; index++) run(chunks);
  const batches: number[] = [];
  for (let batch = 0; batch < batchCount; batch++) {
    const started = process.hrtime.bigint();
    for (let index = 0; index < rounds; index++) run(chunks);
    batches.push(Number(process.hrtime.bigint() - started) / (rounds * events.length));
  }
  batches.sort((a, b) => a - b);
  const ns = batches[0] ?? NaN;
  const medianNs = batches[Math.floor(batches.length / 2)] ?? NaN;
  return [
    {
      name,
      chunking: size === null ? 'one event per chunk' : `${size}-byte pieces`,
      events: events.length,
      nsPerEvent: Math.round(ns),
      medianNsPerEvent: Math.round(medianNs),
      check,
    },
  ];
}

const tap =
  (format: keyof typeof USAGE_READERS, framing: 'sse' | 'json-array' = 'sse') =>
  (chunks: Buffer[]) => {
    const meter = createStreamTap({ framing, sink: USAGE_READERS[format].stream() });
    for (const chunk of chunks) meter.write(chunk);
    const { result } = meter.finish({ sourceEnded: true });
    return { usage: result.usage, textChars: result.textChars, complete: result.complete };
  };
const strip = (chunks: Buffer[]) => {
  const stripper = createChatUsageChunkStripper();
  let bytes = 0;
  for (const chunk of chunks) bytes += stripper.push(chunk).length;
  return { bytes: bytes + stripper.end().length };
};
// A native Chat stream whose caller did not ask for usage: metered, then its usage chunk removed
// (the stripper takes its frames from the tap when it can, as the relay sets it up).
const tapAndStrip = (chunks: Buffer[]) => {
  const meter = createStreamTap({ framing: 'sse', sink: USAGE_READERS['openai-chat'].stream() });
  const stripper = createChatUsageChunkStripper();
  if (sharesFraming(stripper)) stripper.shareFraming(meter);
  let bytes = 0;
  for (const chunk of chunks) {
    meter.write(chunk);
    bytes += stripper.push(chunk).length;
  }
  const { result } = meter.finish({ sourceEnded: true });
  return { usage: result.usage, textChars: result.textChars, bytes: bytes + stripper.end().length };
};

const results = [];
for (const size of sizes) {
  results.push(
    ...measure('tap: Chat Completions', chatEvents, tap('openai-chat'), size),
    ...measure('tap: Responses', responsesEvents, tap('openai-responses'), size),
    ...measure('tap: Messages', messagesEvents, tap('anthropic-messages'), size),
    ...measure('tap: Gemini SSE', geminiSseEvents, tap('gemini-generate-content'), size),
    ...measure(
      'tap: Gemini JSON array',
      geminiArrayEvents,
      tap('gemini-generate-content', 'json-array'),
      size,
    ),
    ...measure('tap: Antigravity SSE', antigravityEvents, tap('antigravity'), size),
    ...measure('Chat usage-chunk stripper', chatEvents, strip, size),
    ...measure('tap + stripper: native Chat', chatEvents, tapAndStrip, size),
  );
}
for (const one of results) {
  process.stdout.write(
    `${one.nsPerEvent.toString().padStart(6)} ns/event (median ${one.medianNsPerEvent})  ${one.name} (${one.chunking})  ${JSON.stringify(one.check)}\n`,
  );
}
const folder = fileURLToPath(new URL('../results/hot-path/', import.meta.url));
mkdirSync(folder, { recursive: true });
writeFileSync(
  `${folder}sse-meter-${label}.json`,
  `${JSON.stringify({ facts, date: facts.date, node: process.version, batches: batchCount, rounds, results }, null, 2)}\n`,
);
for (const file of updateBenchSummaries()) process.stderr.write(`bench: wrote ${file}\n`);
