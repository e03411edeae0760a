/**
 * Pure: the file name of a records CSV, after its filter, so two downloads do not overwrite each
 * other and the name says what is inside: `tollgate-records-<namespace>[-<key>]-<from>-<to>
 * [-<model>][-<outcome>].csv`, times in UTC to the minute (`20260301T0930Z`), an open start as
 * `start` and an open end as the time of the export. Anything but letters, digits, `.`, `_` and
 * `-` becomes `_` (a model name comes from clients). The web app names its link the same way.
 */
export interface RecordsCsvNameInput {
  namespace: string;
  key?: string | undefined;
  model?: string | undefined;
  outcome?: string | undefined;
  /** Epoch ms. */
  from?: number | undefined;
  to?: number | undefined;
  now: number;
}

const minute = (time: number): string =>
  `${new Date(time).toISOString().slice(0, 16).replace(/[-:]/g, '')}Z`;

const safe = (text: string): string => text.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100);

export function recordsCsvName(input: RecordsCsvNameInput): string {
  const parts = [
    input.namespace,
    input.key,
    input.from === undefined ? 'start' : minute(input.from),
    minute(input.to ?? input.now),
    input.model,
    input.outcome,
  ];
  const named = parts.filter((part): part is string => part !== undefined && part !== '');
  return `tollgate-records-${named.map(safe).join('-')}.csv`;
}
