import { describe, expect, it } from 'vitest';
import { parseMonitorLine } from './monitor-redis.js';

describe('parseMonitorLine', () => {
  it('reads the source, the lower-cased name and the arguments, escapes undone', () => {
    expect(
      parseMonitorLine(
        '1795555999.186228 [0 127.0.0.1:53260] "EVALSHA" "ace4" "1" "k:{ns}" "{\\"a\\":\\"b\\\\c\\"}" "x\\ny" "\\x01\\xff"',
      ),
    ).toEqual({
      name: 'evalsha',
      args: ['ace4', '1', 'k:{ns}', '{"a":"b\\c"}', 'x\ny', '\x01\xff'],
      source: '127.0.0.1:53260',
    });
    expect(parseMonitorLine('1795555999.186309 [0 lua] "SET" "k" "1" "NX"')).toEqual({
      name: 'set',
      args: ['k', '1', 'NX'],
      source: 'lua',
    });
    expect(parseMonitorLine('1795555999.1 [0 lua] "PING"')?.args).toEqual([]);
  });

  it('gives null for what is not a command line', () => {
    expect(parseMonitorLine('OK')).toBeNull();
    expect(parseMonitorLine('1795555999.1 [0 lua] PING')).toBeNull();
  });
});
