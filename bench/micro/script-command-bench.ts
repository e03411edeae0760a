/**
 * `npx tsx bench/micro/script-command-bench.ts`: nanoseconds to build one admission-sized EVALSHA in
 * RESP, as the bytes the socket's write sends (text encoded as UTF-8 as the write does; bytes as
 * they are), with ioredis's `Command` (the arguments copied with `Array.flat` and converted one by
 * one, then joined as text) and with the store's `ScriptCommand` (store/script-command.ts: ASCII
 * commands written as bytes). The fastest of 15 batches of 20,000 each, the two ways' batches
 * alternated, in process; nothing is sent.
 * Prints one line per way and writes them, with the store's time as a fraction of ioredis's, as
 * the raw result `bench/results/<date>T<time>-script-command.json` (write-bench-result.ts).
 */
import { Command } from 'ioredis';
import { ScriptCommand, scriptArgs } from '../../store/script-command.js';
import { startBenchRun } from '../support/write-bench-result.js';

const SHA = 'a'.repeat(40);
const KEYS = Array.from(
  { length: 7 },
  (_, index) => `tg:{ns:team-a}:part${index}:0123456789abcdef`,
);
const CHARGE = `1795000000000\t{"requestId":"req_${'0'.repeat(32)}","model":"gpt-4o-mini","usage":{"input":12}`;
const args = (): (string | number)[] => [
  'tg:{ns:team-a}:',
  `req_${'0'.repeat(32)}`,
  'key-uid-0123',
  Date.now(),
  60_000,
  123_456,
  0,
  0,
  0,
  0,
  0,
  '0',
  '0',
  604_800_000,
  CHARGE,
  0,
];

const ways: Record<
  string,
  () => { toWritable(socket: object): string | Buffer; promise: Promise<unknown> }
> = {
  'ioredis Command': () =>
    new Command('evalsha', [SHA, KEYS.length, ...KEYS, ...args()], { replyEncoding: 'utf8' }),
  ScriptCommand: () => new ScriptCommand('evalsha', scriptArgs(SHA, KEYS, args())),
};

let written = 0;
function batch(
  make: () => { toWritable(socket: object): string | Buffer; promise: Promise<unknown> },
): number {
  const count = 20_000;
  const started = process.hrtime.bigint();
  for (let index = 0; index < count; index += 1) {
    const command = make();
    // What the socket's write sends: text encoded as UTF-8, bytes as they are.
    const writable = command.toWritable({});
    written += typeof writable === 'string' ? Buffer.from(writable).length : writable.length;
    command.promise.catch(() => undefined);
  }
  return Number(process.hrtime.bigint() - started) / count;
}

const run = startBenchRun('script-command', 'bench/micro/script-command-bench.ts');
const nsPerCommand: Record<string, number> = {};
// The ways alternate batch by batch, so a change of the machine's load falls on both alike.
for (let round = 0; round < 15; round += 1) {
  for (const [name, make] of Object.entries(ways)) {
    nsPerCommand[name] = Math.min(nsPerCommand[name] ?? Infinity, batch(make));
  }
}
for (const [name, fastest] of Object.entries(nsPerCommand)) {
  nsPerCommand[name] = Math.round(fastest);
  process.stdout.write(`${fastest.toFixed(0).padStart(6)} ns per command  ${name}\n`);
}
if (written === 0) throw new Error('nothing was written');
const ratio = (nsPerCommand.ScriptCommand ?? NaN) / (nsPerCommand['ioredis Command'] ?? NaN);
run.write({
  nsPerCommand,
  scriptCommandAgainstIoredis: Math.round(ratio * 100) / 100,
  batches: 15,
  commandsPerBatch: 20_000,
});
