import { describe, expect, it } from 'vitest';
import {
  parseCommandMicroseconds,
  parseCommandStats,
  splitScriptTimes,
} from './read-redis-commandstats.js';

// As Redis 7 prints it (`INFO commandstats`), after a run of admission and settlement scripts.
const INFO = [
  '# Commandstats',
  'cmdstat_evalsha:calls=2000,usec=96000,usec_per_call=48.00,rejected_calls=0,failed_calls=0',
  'cmdstat_hmget:calls=4000,usec=6000,usec_per_call=1.50,rejected_calls=0,failed_calls=0',
  'cmdstat_xadd:calls=1000,usec=2200,usec_per_call=2.20,rejected_calls=0,failed_calls=0',
  'cmdstat_config|resetstat:calls=1,usec=40,usec_per_call=40.00,rejected_calls=0,failed_calls=0',
  'cmdstat_info:calls=3,usec=300,usec_per_call=100.00,rejected_calls=0,failed_calls=0',
  '',
].join('\r\n');

describe('Redis command statistics', () => {
  it('reads calls and microseconds per command, the bench’s own commands left out', () => {
    expect([...parseCommandStats(INFO)]).toEqual([
      ['evalsha', 2000],
      ['hmget', 4000],
      ['xadd', 1000],
    ]);
    expect([...parseCommandMicroseconds(INFO)]).toEqual([
      ['evalsha', 96000],
      ['hmget', 6000],
      ['xadd', 2200],
    ]);
  });

  it("splits the scripts' time into their commands' and their own", () => {
    expect(splitScriptTimes(parseCommandMicroseconds(INFO))).toEqual({
      scripts: 96000,
      commands: 8200,
      scriptsOwn: 87800,
    });
    expect(splitScriptTimes(new Map([['get', 10]]))).toEqual({
      scripts: 0,
      commands: 10,
      scriptsOwn: 0,
    });
  });
});
