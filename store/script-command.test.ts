/**
 * The script command writes exactly the bytes ioredis's own `Command` writes for the same call
 * (numbers as text, multi-byte characters counted in bytes), whichever way it builds them (bytes
 * for ASCII commands, text otherwise), and gives a cluster the slot of its first key.
 */
import { Command } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { ScriptCommand, scriptArgs } from './script-command.js';

const KEYS = ['tg:{ns:team-a}:kc:key-1', 'tg:{ns:team-a}:ac', 'tg:{ns:team-a}:inflight'];
const asBytes = (writable: string | Buffer): Buffer =>
  typeof writable === 'string' ? Buffer.from(writable) : writable;

const ARGS = [
  'tg:{ns:team-a}:',
  'req_1',
  1_795_000_000_000,
  0,
  -5,
  1.5,
  '{"model":"gpt-4o ✓ 模型"}',
  '',
];

describe('ScriptCommand', () => {
  it("writes what ioredis's Command writes, for ASCII arguments and others", () => {
    const ascii = ARGS.filter((arg) => typeof arg === 'number' || /^[\x20-\x7e]*$/.test(arg));
    for (const [name, args] of [
      ['evalsha', ARGS],
      ['eval', ARGS],
      ['evalsha', ascii],
      // Past the short arguments copied one character at a time: ASCII, then not.
      ['evalsha', [...ascii, `{"record":"${'x'.repeat(300)}"}`]],
      ['evalsha', [...ascii, `{"record":"${'x'.repeat(300)}é€"}`]],
      // Two characters of five bytes in all, then ASCII: never fewer bytes than characters.
      ['evalsha', [...ascii, `é€${'y'.repeat(60)}`]],
      // Larger than the scratch buffer: written as text.
      ['evalsha', [...ascii, 'z'.repeat(100_000)]],
    ] as const) {
      const head = name === 'evalsha' ? 'a'.repeat(40) : "return redis.call('GET', KEYS[1])";
      const ours = new ScriptCommand(name, scriptArgs(head, KEYS, args));
      const theirs = new Command(name, [head, KEYS.length, ...KEYS, ...args]);
      expect(asBytes(ours.toWritable()).equals(asBytes(theirs.toWritable({})))).toBe(true);
      expect(ours.getKeys()).toEqual(KEYS);
      expect(ours.getSlot()).toBe(theirs.getSlot());
    }
  });

  it('writes ASCII commands as bytes and the others as text', () => {
    expect(Buffer.isBuffer(new ScriptCommand('evalsha', ['sha', '0', 'plain']).toWritable())).toBe(
      true,
    );
    expect(typeof new ScriptCommand('evalsha', ['sha', '0', 'modèle']).toWritable()).toBe('string');
  });

  it('lists the key count and every argument as text', () => {
    expect(scriptArgs('sha', ['k1', 'k2'], [1, 'x', 2.5])).toEqual([
      'sha',
      '2',
      'k1',
      'k2',
      '1',
      'x',
      '2.5',
    ]);
  });
});
