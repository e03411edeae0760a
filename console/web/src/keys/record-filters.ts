/**
 * Pure: the records page's filter form and the API filter it makes. Times are typed in the
 * browser's zone (`datetime-local`) and sent as ISO instants; an unparsable time is left out.
 */
import type { Outcome, RecordFilter } from '../api/usage-api.js';

export interface RecordFilterForm {
  model: string;
  outcome: '' | Outcome;
  /** `YYYY-MM-DDTHH:MM`, local; empty: open. */
  from: string;
  to: string;
}

export const EMPTY_FILTER: RecordFilterForm = { model: '', outcome: '', from: '', to: '' };

/** A token-counting call's row says so instead of its outcome (it is no request). */
export const TOKEN_COUNT_LABEL = 'Token count';

export const OUTCOME_LABELS: Record<Outcome, string> = {
  success: 'Success',
  client_error: 'Client error',
  server_error: 'Server error',
  other: 'Other',
};

function instant(local: string): string | undefined {
  if (local === '') return undefined;
  const time = new Date(local).getTime();
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

export function recordFilterOf(key: string, form: RecordFilterForm): RecordFilter {
  const from = instant(form.from);
  const to = instant(form.to);
  return {
    key,
    ...(form.model === '' ? {} : { model: form.model }),
    ...(form.outcome === '' ? {} : { outcome: form.outcome }),
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
  };
}

/** A message when the range is backwards, else null. */
export function rangeProblem(form: RecordFilterForm): string | null {
  const from = instant(form.from);
  const to = instant(form.to);
  if (from !== undefined && to !== undefined && from >= to) return '"To" must be after "From".';
  return null;
}
