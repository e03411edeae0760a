import { describe, expect, it } from 'vitest';
import { parseCpuSeconds, parseCpuTicks, parseStatusKilobytes } from './read-process-stats.js';
import { countCommands, parseCommandStats } from './read-redis-commandstats.js';
import { countEventEnds } from './send-timed-request.js';

describe('/proc readings', () => {
  it('adds utime and stime in clock ticks, even with spaces in the command name', () => {
    const stat = '4242 (node my script) S 1 4242 4242 0 -1 4194560 9 0 0 0 250 70 0 0 20 0 11';
    expect(parseCpuSeconds(stat)).toBeCloseTo(3.2);
    expect(parseCpuSeconds('')).toBe(0);
  });

  it('reads one CPU’s busy and total ticks, idle and iowait not busy', () => {
    const stat =
      'cpu  374493 150 50436 467864 1277 0 8351 141 0 0\n' +
      'cpu0 160557 39 23823 263249 247 0 2337 65 0 0\n' +
      'cpu1 213936 110 26612 204615 1029 0 6013 76 0 0\n';
    expect(parseCpuTicks(stat, '1')).toEqual({
      busy: 213936 + 110 + 26612 + 6013 + 76,
      total: 213936 + 110 + 26612 + 204615 + 1029 + 6013 + 76,
    });
    expect(parseCpuTicks(stat, '0').busy).toBe(160557 + 39 + 23823 + 2337 + 65);
    expect(parseCpuTicks(stat, '7')).toEqual({ busy: 0, total: 0 });
  });

  it('reads VmRSS and VmHWM in kB', () => {
    const status = 'Name:\tnode\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\n';
    expect(parseStatusKilobytes(status, 'VmHWM')).toBe(204800);
    expect(parseStatusKilobytes(status, 'VmRSS')).toBe(102400);
    expect(parseStatusKilobytes('Name:\tnode\n', 'VmRSS')).toBe(0);
  });
});

describe('Redis INFO commandstats', () => {
  it('counts calls per command, script calls apart, and leaves the bench’s own out', () => {
    const info = [
      '# Commandstats',
      'cmdstat_evalsha:calls=200,usec=900,usec_per_call=4.50,rejected_calls=0,failed_calls=0',
      'cmdstat_hget:calls=400,usec=100,usec_per_call=0.25,rejected_calls=0,failed_calls=0',
      'cmdstat_info:calls=3,usec=100,usec_per_call=33,rejected_calls=0,failed_calls=0',
      'cmdstat_config|resetstat:calls=1,usec=5,usec_per_call=5,rejected_calls=0,failed_calls=0',
    ].join('\r\n');
    const calls = parseCommandStats(info);
    expect([...calls.entries()]).toEqual([
      ['evalsha', 200],
      ['hget', 400],
    ]);
    expect(countCommands(calls)).toEqual({
      total: 600,
      scripts: 200,
      byCommand: { evalsha: 200, hget: 400 },
    });
  });
});

describe('countEventEnds', () => {
  it('finds blank-line event ends across chunk boundaries and CRLF', () => {
    const first = countEventEnds('', 'event: a\ndata: {}\n');
    expect(first.ends).toBe(0);
    const second = countEventEnds(first.tail, '\nevent: b\r\ndata: {}\r\n\r\ndata: x\n\n');
    expect(second.ends).toBe(3);
    expect(second.tail).toBe('');
  });
});
