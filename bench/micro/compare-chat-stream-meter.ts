/**
 * `npx tsx bench/micro/compare-chat-stream-meter.ts <base worktree> [rounds]`: CPU per Chat
 * Completions stream of the meter's byte path (the usage accumulator's `feedBytes` over 21 events
 * that look like OpenAI's: a role delta, then text deltas of varying length and script), this
 * checkout's against another checkout's, in one process, in alternating rounds (base, head, then
 * head, base, ...), so the machine's load falls on both alike. Prints the medians and head/base.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const baseRoot = resolve(process.argv[2] ?? '../base');
const rounds = Number(process.argv[3] ?? 14);
const STREAMS_PER_ROUND = 20_000;
const words = [
  'Hello',
  ' there',
  '!',
  ' How',
  ' can',
  ' I',
  ' help',
  ' you',
  ' today',
  '?',
  ' é',
  ' 🙂',
];
const chunk = (delta: object, index: number): Buffer =>
  Buffer.from(
    JSON.stringify({
      id: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
      object: 'chat.completion.chunk',
      created: 1_700_000_000 + Math.floor(index / 16),
      model: 'gpt-4o-mini-2024-07-18',
      system_fingerprint: 'fp_44709d6fcb',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: null }],
    }),
  );
const events = [
  chunk({ role: 'assistant', content: '' }, 0),
  ...Array.from({ length: 20 }, (_, index) =>
    chunk({ content: words[index % words.length] }, index + 1),
  ),
];

interface Accumulator {
  feedBytes(bytes: Uint8Array, start: number, end: number): boolean;
  result(): { textChars: number };
}
type Module = { createOpenAIChatUsageAccumulator(): Accumulator };

const meterOf = (module: Module) => (): number => {
  const accumulator = module.createOpenAIChatUsageAccumulator();
  for (const event of events) {
    if (!accumulator.feedBytes(event, 0, event.length)) throw new Error('an event was refused');
  }
  return accumulator.result().textChars;
};

const path = 'gateway/protocols/openai-chat/convert-openai-chat-usage.ts';
const meters = {
  base: meterOf((await import(pathToFileURL(resolve(baseRoot, path)).href)) as Module),
  head: meterOf((await import(new URL(`../../${path}`, import.meta.url).href)) as Module),
};
if (meters.base() !== meters.head()) throw new Error('base and head count different text');
const micros: Record<'base' | 'head', number[]> = { base: [], head: [] };
for (let round = 0; round < rounds; round += 1) {
  for (const name of round % 2 === 0 ? (['base', 'head'] as const) : (['head', 'base'] as const)) {
    const before = process.cpuUsage();
    for (let stream = 0; stream < STREAMS_PER_ROUND; stream += 1) meters[name]();
    const used = process.cpuUsage(before);
    // The first two rounds warm both up.
    if (round >= 2) micros[name].push((used.user + used.system) / STREAMS_PER_ROUND);
  }
}
const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const [base, head] = [median(micros.base), median(micros.head)];
process.stdout.write(
  `µs CPU per stream of ${events.length} events: base ${base.toFixed(2)}, head ${head.toFixed(2)}, head/base ${(head / base).toFixed(3)}\n`,
);
