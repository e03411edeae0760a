/** "Download CSV": the filtered records as CSV, the file named after the filter. */
import { usageApi, type RecordFilter } from '../api/usage-api.js';
import { recordsCsvName } from '../../../server/usage/name-records-csv.js';

const optionalTime = (value: string | undefined): number | undefined =>
  value === undefined ? undefined : Date.parse(value);

export function RecordsCsvLink(props: { namespace: string; filter: RecordFilter }) {
  const { namespace, filter } = props;
  return (
    <a
      className="button"
      href={usageApi.recordsCsvHref({ namespace, filter })}
      download={recordsCsvName({
        namespace,
        key: filter.key,
        model: filter.model,
        outcome: filter.outcome,
        from: optionalTime(filter.from),
        to: optionalTime(filter.to),
        now: Date.now(),
      })}
    >
      Download CSV
    </a>
  );
}
