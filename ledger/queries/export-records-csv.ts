/**
 * CSV export of the records matching a filter: RFC 4180 lines, streamed page by page (keyset), so
 * memory stays bounded whatever the range. Text a spreadsheet would run as a formula (a leading
 * `=`, `+`, `-`, `@`, tab or carriage return; model and key names come from clients) is prefixed
 * with a single quote.
 */
import type { LedgerQueryable } from '../ledger-database.js';
import { queryRecordsPage, type LedgerRow, type RecordFilter } from './records-page.js';

export const CSV_COLUMNS: readonly [
  string,
  (row: LedgerRow) => string | number | boolean | null,
][] = [
  ['time', (row) => new Date(row.time).toISOString()],
  ['request_id', (row) => row.requestId],
  ['charged_at', (row) => new Date(row.chargedAt).toISOString()],
  ['namespace', (row) => row.namespace],
  ['key_uid', (row) => row.keyUid],
  ['key_name', (row) => row.keyName],
  ['group', (row) => row.group],
  ['platform', (row) => row.platform],
  ['model', (row) => row.model],
  ['upstream_model', (row) => row.upstreamModel],
  ['upstream', (row) => row.upstream],
  ['input_uncached_tokens', (row) => row.usage.inputUncached],
  ['cache_read_tokens', (row) => row.usage.cacheRead],
  ['cache_write_5m_tokens', (row) => row.usage.cacheWrite5m],
  ['cache_write_1h_tokens', (row) => row.usage.cacheWrite1h],
  ['output_tokens', (row) => row.usage.output],
  ['reasoning_tokens', (row) => row.usage.reasoning],
  ['cost_nano', (row) => row.costNano],
  ['cost_usd', (row) => (row.costNano / 1e9).toFixed(9)],
  ['multiplier', (row) => row.multiplier],
  ['price_version', (row) => row.priceVersion],
  ['duration_ms', (row) => row.durationMs],
  ['ttfb_ms', (row) => row.timeToFirstByteMs],
  ['status', (row) => row.status],
  ['outcome', (row) => row.outcome],
  ['stream', (row) => row.stream],
  ['estimated', (row) => row.estimated],
  ['flags', (row) => row.flags.join(' ')],
  ['kind', (row) => row.kind],
];

/** One CSV field: quoted when it holds a comma, quote or line break; formulas defused. */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(values: readonly (string | number | boolean | null)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/**
 * Yields the header line, then one line per record, newest first. The first page is read before
 * the header is yielded: a ledger that cannot be read fails the export before anything is sent.
 */
export async function* exportRecordsCsv(
  db: LedgerQueryable,
  filter: RecordFilter & { pageSize?: number },
): AsyncGenerator<string> {
  const readPage = (cursor: string | undefined) =>
    queryRecordsPage(db, {
      ...filter,
      limit: filter.pageSize ?? 1000,
      ...(cursor === undefined ? {} : { cursor }),
    });
  let page = await readPage(undefined);
  yield csvLine(CSV_COLUMNS.map(([name]) => name));
  for (;;) {
    for (const row of page.records) yield csvLine(CSV_COLUMNS.map(([, read]) => read(row)));
    if (page.nextCursor === null) return;
    page = await readPage(page.nextCursor);
  }
}
