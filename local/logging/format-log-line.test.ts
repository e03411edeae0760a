import { describe, expect, it } from 'vitest';
import { createLogDestination, resolveLogFormat } from './create-log-destination.js';
import { formatLogLine } from './format-log-line.js';

const time = Date.UTC(2026, 10, 27, 21, 19, 51, 235);
const plain = { component: 'gateway', timeZone: 'UTC' };

describe('formatLogLine', () => {
  it('writes time, level, component and message, then the fields as key=value', () => {
    const record = {
      level: 30,
      time,
      pid: 1,
      hostname: 'vm',
      name: 'tollgate-local',
      part: 'operator',
      msg: 'policy cache programmed',
      cause: 'initial',
      seconds: 0.00106894199999806,
      keys: 0,
      committed: true,
    };
    expect(formatLogLine(record, plain)).toBe(
      '21:19:51.235 INFO  operator policy cache programmed  cause=initial seconds=0.001069 keys=0 committed=true',
    );
  });

  it('names the component from the record, else the stream, without the tollgate- prefix', () => {
    const line = { level: 40, time, msg: 'm' };
    expect(formatLogLine({ ...line, name: 'tollgate-console' }, plain)).toMatch(
      / WARN {2}console {2}m$/,
    );
    expect(formatLogLine(line, plain)).toMatch(/ WARN {2}gateway {2}m$/);
  });

  it('shows a request, a response and an error by their useful parts, quoting text with spaces', () => {
    const record = {
      level: 50,
      time,
      msg: 'request errored',
      reqId: 'req_1',
      req: { method: 'POST', url: '/v1/messages', headers: { host: 'x' } },
      res: { statusCode: 502 },
      err: { type: 'Error', message: 'upstream reset', stack: 'Error: upstream reset\n at x' },
      note: 'two words',
    };
    expect(formatLogLine(record, plain)).toBe(
      '21:19:51.235 ERROR gateway  request errored  reqId=req_1 method=POST url=/v1/messages status=502 err="upstream reset" note="two words"',
    );
  });

  it('never shows a field whose name says it holds a secret', () => {
    const record = {
      level: 30,
      time,
      msg: 'm',
      password: 'hunter2',
      apiKey: 'tg-live-value',
      authorization: 'Bearer tg-live-value',
      clientSecret: 's3cret',
    };
    const line = formatLogLine(record, plain);
    expect(line).not.toMatch(/hunter2|tg-live-value|s3cret/);
    expect(line).toContain('password=[hidden] apiKey=[hidden]');
  });

  it('keeps a line short: at most eight fields and long values cut', () => {
    const many = Object.fromEntries(Array.from({ length: 11 }, (_, index) => [`f${index}`, index]));
    const line = formatLogLine(
      { level: 30, time, msg: 'm', ...many, long: 'x'.repeat(500) },
      plain,
    );
    expect(line).toMatch(/f7=7 \(\+4 more\)$/);
    expect(formatLogLine({ level: 30, time, msg: 'm', long: 'x'.repeat(500) }, plain).length).toBe(
      '21:19:51.235 INFO  gateway  m  long='.length + 120,
    );
  });

  it('colours the level only when asked', () => {
    const record = { level: 30, time, msg: 'm' };
    expect(formatLogLine(record, { ...plain, color: true })).toContain('\u001b[32mINFO \u001b[0m');
    expect(formatLogLine(record, plain)).not.toContain('\u001b');
  });
});

describe('createLogDestination', () => {
  function capture(isTTY: boolean): {
    text: () => string;
    output: { write(t: string): void; isTTY: boolean };
  } {
    let text = '';
    return { text: () => text, output: { write: (chunk) => void (text += chunk), isTTY } };
  }
  const line = `${JSON.stringify({ level: 30, time, msg: 'Server listening at http://127.0.0.1:1' })}\n`;

  it('passes JSON lines through in json format', () => {
    const sink = capture(false);
    createLogDestination('json', sink.output)('gateway').write(line);
    expect(sink.text()).toBe(line);
  });

  it('formats each record in pretty format, and passes a line that is not JSON as it is', () => {
    const sink = capture(false);
    const stream = createLogDestination('pretty', sink.output)('console');
    stream.write(line);
    stream.write('not json');
    expect(sink.text()).toMatch(
      /^\d\d:\d\d:\d\d\.235 INFO {2}console {2}Server listening at http:\/\/127\.0\.0\.1:1\nnot json\n$/,
    );
  });
});

describe('resolveLogFormat', () => {
  it('is pretty on a terminal and JSON otherwise, unless a format was chosen', () => {
    expect(resolveLogFormat(undefined, true)).toBe('pretty');
    expect(resolveLogFormat(undefined, false)).toBe('json');
    expect(resolveLogFormat('json', true)).toBe('json');
    expect(resolveLogFormat('pretty', false)).toBe('pretty');
  });
});
