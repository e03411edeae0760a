/**
 * Where `tollgate local`'s logs go: every part (the local control plane's operator and recorder,
 * the gateway, the console) writes through one of these streams to stdout, so lines and the
 * start banner keep their order. `pretty` turns each pino JSON record into a line a person reads
 * (format-log-line.ts); `json` passes the records through as JSON lines. The default is `pretty`
 * on a terminal and `json` otherwise; `--log-format` or `TOLLGATE_LOG_FORMAT` choose.
 */
import { formatLogLine } from './format-log-line.js';

export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** What pino (and fastify's `logger.stream`) writes to: one JSON record per call. */
export interface LogStream {
  write(line: string): void;
}

export interface LogOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** `--log-format` / `TOLLGATE_LOG_FORMAT` when given, else `pretty` on a terminal. */
export function resolveLogFormat(chosen: LogFormat | undefined, isTTY: boolean): LogFormat {
  return chosen ?? (isTTY ? 'pretty' : 'json');
}

function prettyLine(line: string, options: { component: string; color: boolean }): string {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  if (record === null || typeof record !== 'object') return `${line.trimEnd()}\n`;
  return `${formatLogLine(record as Record<string, unknown>, options)}\n`;
}

/** A factory of per-component streams over one output (stdout in `tollgate local`). */
export function createLogDestination(
  format: LogFormat,
  output: LogOutput,
): (component: string) => LogStream {
  if (format === 'json') return () => ({ write: (line) => void output.write(line) });
  // Colour only on a terminal: a forced `pretty` into a pipe or file stays plain text.
  const color = output.isTTY === true;
  return (component) => ({
    write: (line) => void output.write(prettyLine(line, { component, color })),
  });
}
