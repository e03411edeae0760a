/** A page of usage records as a table, its rows busy while the next page is read. */
import type { UsageRecordRow } from '../api/usage-api.js';
import { RecordRow } from './record-row.js';

export function RecordsTable(props: {
  namespace: string;
  /** The key's object name (the records' links). */
  name: string;
  label: string;
  records: UsageRecordRow[];
  /** The rows shown are the previous page's while the next one is read. */
  busy: boolean;
}) {
  return (
    <div className="table-wrap">
      <table className="records">
        <caption className="visually-hidden">Usage records of {props.label}</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Model</th>
            <th scope="col" className="num">
              Input
            </th>
            <th scope="col" className="num">
              Output
            </th>
            <th scope="col" className="num">
              Cache read
            </th>
            <th scope="col" className="num">
              Cache write
            </th>
            <th scope="col" className="num">
              Cost
            </th>
            <th scope="col" className="num">
              Duration
            </th>
            <th scope="col" className="num">
              First byte
            </th>
            <th scope="col">Stream</th>
            <th scope="col">Outcome</th>
            <th scope="col">Request id</th>
          </tr>
        </thead>
        <tbody aria-busy={props.busy}>
          {props.records.map((record) => (
            <RecordRow
              key={record.requestId}
              record={record}
              namespace={props.namespace}
              name={props.name}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}
