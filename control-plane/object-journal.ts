/**
 * The control plane's journal format (`journal.jsonl`): a header line, then batches of changes,
 * each closed by a trailer holding its line count and a hash chained over every batch before it.
 * `readJournal` replays whole batches in order and stops at the first one that is missing, torn or
 * out of the chain. `persist-objects.ts` writes it.
 */
import { readFileSync } from 'node:fs';
import { constants } from 'node:fs';
import { createHash } from 'node:crypto';
import type { KubeObject } from './kube-object.js';
import { isJsonObject } from './kube-object.js';

export interface JournalLine {
  key: string;
  rv: number;
  object: KubeObject | null;
}

/**
 * No O_APPEND: batches are written at their own offsets (Linux ignores the offset of a positional
 * write to an O_APPEND file), so two can be in flight at once.
 */
export const JOURNAL_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_DSYNC;
/** The first line of a journal of batches; lines before it (older journals) are single changes. */
export const JOURNAL_HEADER = '{"journal":2}\n';

/** The hash a batch's trailer holds: of the batch's lines, chained to the batch before it. */
export function chainHash(previous: string, lines: string): string {
  return createHash('sha256')
    .update(previous)
    .update('\n')
    .update(lines)
    .digest('hex')
    .slice(0, 32);
}

/** The batch trailer line. */
export function trailerOf(count: number, hash: string): string {
  return `{"batch":${String(count)},"hash":"${hash}"}\n`;
}

/** Where the journal ends (bytes) and the hash the next batch chains to ('' before a header). */
export interface JournalEnd {
  offset: number;
  hash: string;
}

/**
 * The changes a journal holds, in order, and where its whole batches end. Lines before the header
 * (an older journal) are changes each; after it, a batch's lines count only once its trailer is read
 * and its hash follows the batch before. Reading stops at the first line that is torn, unreadable or
 * out of the chain: nothing after a missing or torn batch is replayed.
 */
export function readJournal(path: string): { lines: JournalLine[]; end: JournalEnd } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return { lines: [], end: { offset: 0, hash: '' } };
  }
  const lines: JournalLine[] = [];
  let batched = false;
  let batch: JournalLine[] = [];
  let batchText = '';
  let hash = '';
  let offset = 0;
  let start = 0;
  for (;;) {
    const newline = bytes.indexOf(0x0a, start);
    if (newline < 0) break; // a torn last line: the batch it belonged to was never acknowledged
    const raw = bytes.toString('utf8', start, newline);
    start = newline + 1;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      break;
    }
    if (!isJsonObject(parsed)) break;
    if (parsed.journal === 2) {
      if (batch.length > 0) break;
      batched = true;
      hash = '';
      offset = start;
      continue;
    }
    if (batched && typeof parsed.batch === 'number' && typeof parsed.hash === 'string') {
      const expected = chainHash(hash, batchText);
      if (parsed.batch !== batch.length || parsed.hash !== expected) break;
      lines.push(...batch);
      batch = [];
      batchText = '';
      hash = expected;
      offset = start;
      continue;
    }
    if (typeof parsed.key !== 'string' || typeof parsed.rv !== 'number') break;
    const object = isJsonObject(parsed.object) ? (parsed.object as KubeObject) : null;
    const line = { key: parsed.key, rv: parsed.rv, object };
    if (batched) {
      batch.push(line);
      batchText += `${raw}\n`;
    } else {
      lines.push(line);
      offset = start;
    }
  }
  return { lines, end: { offset, hash } };
}
