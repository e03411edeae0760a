/**
 * The script command writes exactly what ioredis's own `Command` writes for the same call (numbers
 * as text, multi-byte characters counted in bytes), and gives a cluster the slot of its first key.
 */
import { Command } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { ScriptCommand, scriptArgs } from './script-command.js';

const KEYS = ['tg:{ns:team-a}:kc:key-1', 'tg:{ns:team-a}:ac', 'tg:{ns:team-a}:inflight'];
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
    for (const [name, args] of [
      ['evalsha', ARGS],
      ['eval', ARGS],
      ['evalsha', ARGS.filter((arg) => typeof arg === 'number' || /^[\x20-\x7e]*$/.test(arg))],
    ] as const) {
      const head = name === 'evalsha' ? 'a'.repeat(40) : "return redis.call('GET', KEYS[1])";
      const ours = new ScriptCommand(name, scriptArgs(head, KEYS, args));
      const theirs = new Command(name, [head, KEYS.length, ...KEYS, ...args]);
      expect(ours.toWritable()).toBe(theirs.toWritable({}));
      expect(ours.getKeys()).toEqual(KEYS);
      expect(ours.getSlot()).toBe(theirs.getSlot());
    }
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
