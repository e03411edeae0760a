/** The records' pager: "← Newer", "Older →" (the records API's cursor) and "Per page". */
import { PageSizeSelect } from '../ui/page-size-select.js';
import type { RecordPaging } from './use-key-records.js';

const PAGE_SIZES = [25, 50, 100, 200] as const;

export function RecordsPager(props: {
  paging: RecordPaging;
  nextCursor: string | null;
  busy: boolean;
}) {
  const { paging } = props;
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" disabled={!paging.hasNewer} onClick={paging.newer}>
        ← Newer
      </button>
      <button
        type="button"
        disabled={props.nextCursor === null || props.busy}
        onClick={() => {
          if (props.nextCursor !== null) paging.older(props.nextCursor);
        }}
      >
        Older →
      </button>
      <PageSizeSelect
        label="Per page"
        sizes={PAGE_SIZES}
        value={paging.pageSize}
        onChange={paging.resize}
      />
    </nav>
  );
}
