/** The keys' pager: "← Previous", the page and its keys, "Next →", "Keys per page". */
import { PageSizeSelect } from '../ui/page-size-select.js';
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
      <PageSizeSelect
        label="Keys per page"
        sizes={KEY_PAGE_SIZES}
        value={pageSize}
        onChange={resize}
      />
    </nav>
  );
}
