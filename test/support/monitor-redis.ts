/**
 * Redis's MONITOR on a plain socket: every command the server runs while `action` runs, with its
 * source (`lua` for commands a script ran, else the client's address), up to an ECHO of a marker
 * sent afterwards on another connection. ioredis's `monitor()` is not used: when the first
 * monitored command reaches it in the same read as MONITOR's `+OK`, it throws "Command queue state
 * error" from its socket handler, which no test can catch; a socket of our own has no command queue.
 */
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { Redis } from 'ioredis';

export interface MonitoredCommand {
  /** The command's name, lower case. */
  name: string;
  args: string[];
  /** `lua`, or the client's address. */
  source: string;
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', a: '\x07', b: '\b' };

/** One MONITOR line (`<time> [<db> <source>] "name" "arg" …`), or null for anything else. */
export function parseMonitorLine(line: string): MonitoredCommand | null {
  const head = /^\d+\.\d+ \[\d+ ([^\]]+)\] /.exec(line);
  if (head === null) return null;
  const words: string[] = [];
  let at = head[0].length;
  while (at < line.length) {
    if (line[at] !== '"') return null;
    let word = '';
    at += 1;
    while (at < line.length && line[at] !== '"') {
      const char = line[at] ?? '';
      if (char !== '\\') {
        word += char;
        at += 1;
        continue;
      }
      const next = line[at + 1] ?? '';
      if (next === 'x') {
        word += String.fromCharCode(parseInt(line.slice(at + 2, at + 4), 16));
        at += 4;
      } else {
        word += ESCAPES[next] ?? next;
        at += 2;
      }
    }
    words.push(word);
    at += 2; // the closing quote and the space after it
  }
  const [name = '', ...args] = words;
  return { name: name.toLowerCase(), args, source: head[1] ?? '' };
}

export async function monitorRedis(
  url: string,
  action: () => Promise<unknown>,
): Promise<MonitoredCommand[]> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port) });
  const observer = new Redis(url, { maxRetriesPerRequest: 1 });
  const marker = randomUUID();
  const seen: MonitoredCommand[] = [];
  let pending = '';
  let started: () => void = () => undefined;
  let ended: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (started = resolve));
  const done = new Promise<void>((resolve) => (ended = resolve));
  socket.setEncoding('utf8');
  socket.on('data', (text: string) => {
    pending += text;
    let end = pending.indexOf('\r\n');
    while (end !== -1) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 2);
      end = pending.indexOf('\r\n');
      if (line === '+OK') started();
      const command = line.startsWith('+') ? parseMonitorLine(line.slice(1)) : null;
      if (command === null) continue;
      if (command.name === 'echo' && command.args[0] === marker) ended();
      else seen.push(command);
    }
  });
  try {
    // Connected and past its ready check (an INFO) before anything is watched.
    await observer.ping();
    socket.write('MONITOR\r\n');
    await ready;
    await action();
    await observer.echo(marker);
    await done;
    return seen;
  } finally {
    socket.destroy();
    observer.disconnect();
  }
}
