/** The keys' pager: "← Previous", the page and its keys, "Next →", "Keys per page". */
import { KEY_PAGE_SIZES } from './page-keys.js';
import type { KeyTable } from './use-key-table.js';

export function KeysPager(props: { table: KeyTable }) {
  const { shown, goTo, pageSize, resize } = props.table;
  return (
    <nav className="keys-pager" aria-label="Pages of keys">
      <button
        type="button"
        disabled={shown.index === 0}
        onClick={() => {
          goTo(shown.index - 1);
        }}
      >
        ← Previous
      </button>
      <span>
        Page {shown.index + 1} of {shown.count} (keys {shown.start + 1}–{shown.end})
      </span>
      <button
        type="button"
        disabled={shown.index >= shown.count - 1}
        onClick={() => {
          goTo(shown.index + 1);
        }}
      >
        Next →
      </button>
      <label className="inline-size">
        Keys per page
        <select
          value={pageSize}
          onChange={(event) => {
            resize(Number(event.target.value));
          }}
        >
          {KEY_PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </label>
    </nav>
  );
}
