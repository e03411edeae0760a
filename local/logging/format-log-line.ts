/**
 * One pino JSON record as a line a person reads in a terminal: time, level, component, message and
 * a few `key=value` fields, e.g.
 * `21:19:51.300 INFO  operator  policy cache programmed  cause=initial keys=0`.
 * Pure: no clock, no stream. Fields whose names say they hold a secret are never shown.
 */

export interface LogLineOptions {
  /** The component when the record names none (the gateway's fastify logger has no name). */
  component: string;
  /** Colour the level with ANSI escapes (a terminal that wants colour). */
  color?: boolean;
  /** The time zone of the clock time; default the process's. */
  timeZone?: string;
}

const LEVELS: Record<number, { label: string; color: string }> = {
  10: { label: 'TRACE', color: '90' },
  20: { label: 'DEBUG', color: '36' },
  30: { label: 'INFO', color: '32' },
  40: { label: 'WARN', color: '33' },
  50: { label: 'ERROR', color: '31' },
  60: { label: 'FATAL', color: '35' },
};

/** pino's own bookkeeping, and what the line shows in its own columns. */
const HIDDEN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'name', 'part', 'v']);
const SECRET = /password|secret|token|api-?key|authorization|cookie|pepper|credential/i;
const MOST_FIELDS = 8;
const LONGEST_VALUE = 120;

function clock(time: unknown, timeZone: string | undefined): string {
  const date = new Date(typeof time === 'number' ? time : Number.NaN);
  if (Number.isNaN(date.getTime())) return '--:--:--.---';
  const text = date.toLocaleTimeString('en-GB', {
    hour12: false,
    ...(timeZone === undefined ? {} : { timeZone }),
  });
  return `${text}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

function componentOf(record: Record<string, unknown>, fallback: string): string {
  const part = record.part ?? record.name;
  if (typeof part !== 'string' || part === '') return fallback;
  return part.replace(/^tollgate-/, '');
}

/** A value on one line: plain when it has no space or quote, JSON otherwise, cut when long. */
function show(value: unknown): string {
  let text: string;
  if (typeof value === 'number')
    text = Number.isInteger(value) ? String(value) : value.toPrecision(4);
  else if (typeof value === 'string')
    text = /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  else text = JSON.stringify(value);
  return text.length > LONGEST_VALUE ? `${text.slice(0, LONGEST_VALUE - 1)}…` : text;
}

/** `req`, `res` and `err` as their useful parts; anything else as it is. */
function flatten(key: string, value: unknown): [string, unknown][] {
  if (value === null || typeof value !== 'object') return [[key, value]];
  const object = value as Record<string, unknown>;
  if (key === 'req')
    return [
      ['method', object.method],
      ['url', object.url],
    ];
  if (key === 'res') return [['status', object.statusCode]];
  if (key === 'err' || key === 'error') return [[key, object.message ?? object.type]];
  return [[key, value]];
}

function fields(record: Record<string, unknown>): string {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (HIDDEN.has(key) || value === undefined) continue;
    for (const [name, shown] of flatten(key, value)) {
      if (shown === undefined) continue;
      pairs.push(`${name}=${SECRET.test(name) ? '[hidden]' : show(shown)}`);
    }
  }
  const rest = pairs.length - MOST_FIELDS;
  return [...pairs.slice(0, MOST_FIELDS), ...(rest > 0 ? [`(+${rest} more)`] : [])].join(' ');
}

export function formatLogLine(record: Record<string, unknown>, options: LogLineOptions): string {
  const level = LEVELS[typeof record.level === 'number' ? record.level : 30] ?? {
    label: String(record.level),
    color: '0',
  };
  const label = level.label.padEnd(5);
  const shownLevel = options.color === true ? `\u001b[${level.color}m${label}\u001b[0m` : label;
  const component = componentOf(record, options.component).padEnd(8);
  const message = typeof record.msg === 'string' ? record.msg : '';
  const rest = fields(record);
  const time = clock(record.time, options.timeZone);
  return `${time} ${shownLevel} ${component} ${message}${rest === '' ? '' : `  ${rest}`}`;
}
