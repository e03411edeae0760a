/** The records page's filters: model (those the key used), outcome, from and to; "Clear filters". */
import { EMPTY_FILTER, OUTCOME_LABELS, type RecordFilterForm } from './record-filters.js';

export function RecordFilterBar(props: {
  form: RecordFilterForm;
  /** The models offered: the key's, and the one chosen. */
  modelNames: Set<string>;
  /** Why the range is refused (from after to); null when it is fine. */
  problem: string | null;
  change: (changes: Partial<RecordFilterForm>) => void;
}) {
  const { form, modelNames, problem, change } = props;
  return (
    <form
      className="toolbar record-filters"
      aria-label="Filters"
      onSubmit={(event) => {
        event.preventDefault();
      }}
    >
      <label className="field">
        Model
        <select
          value={form.model}
          onChange={(event) => {
            change({ model: event.target.value });
          }}
        >
          <option value="">All models</option>
          {[...modelNames].sort().map((model) => (
            <option key={model} value={model}>
              {model}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        Outcome
        <select
          value={form.outcome}
          onChange={(event) => {
            change({ outcome: event.target.value as RecordFilterForm['outcome'] });
          }}
        >
          <option value="">All outcomes</option>
          {Object.entries(OUTCOME_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        From
        <input
          type="datetime-local"
          value={form.from}
          aria-invalid={problem !== null}
          onChange={(event) => {
            change({ from: event.target.value });
          }}
        />
      </label>
      <label className="field">
        To
        <input
          type="datetime-local"
          value={form.to}
          aria-invalid={problem !== null}
          aria-describedby={problem === null ? undefined : 'range-problem'}
          onChange={(event) => {
            change({ to: event.target.value });
          }}
        />
      </label>

      {(form.model !== '' || form.outcome !== '' || form.from !== '' || form.to !== '') && (
        <button
          type="button"
          className="quiet"
          onClick={() => {
            change(EMPTY_FILTER);
          }}
        >
          Clear filters
        </button>
      )}
    </form>
  );
}
