/** A notifier's delivery history (its status): the newest deliveries, with attempts and outcome. */
import { listOf, recordOf, textOf } from '../admin/spec-values.js';

const TYPE_LABELS: Record<string, string> = {
  KeyWindowThreshold: 'Key window',
  MemberWindowThreshold: 'Member window',
  PlanWindowThreshold: 'Plan window',
  BalanceBelow: 'Balance low',
  KeyExpiring: 'Key expiring',
  SubscriptionExpiring: 'Subscription expiring',
  UpstreamCredentialsInvalid: 'Upstream credentials',
  UpstreamCircuitOpen: 'Upstream circuit open',
};

/** The event id shortened for the table (`evt_6e6b4d50…`); the full id is in its title. */
function shortId(id: string): string {
  return id.length > 16 ? `${id.slice(0, 12)}…` : id;
}

function timeText(value: unknown): string {
  const text = textOf(value);
  if (text === '') return '';
  const time = new Date(text);
  return Number.isNaN(time.getTime()) ? text : time.toLocaleString();
}

export function DeliveryHistory(props: {
  name: string;
  status: Record<string, unknown> | undefined;
}) {
  const deliveries = listOf(props.status?.deliveries).map(recordOf);
  if (deliveries.length === 0) {
    return <p className="hint">No event yet.</p>;
  }
  return (
    <div className="table-wrap">
      <table className="notifier-history">
        <caption className="visually-hidden">Deliveries of {props.name}</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Subject</th>
            <th scope="col">State</th>
            <th scope="col" className="num">
              Attempts
            </th>
            <th scope="col">First seen</th>
            <th scope="col">Last answer</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((delivery) => {
            const state = textOf(delivery.state);
            const code = textOf(delivery.lastStatusCode);
            const error = textOf(delivery.lastError);
            return (
              <tr key={textOf(delivery.id)}>
                <th scope="row" data-label="Event">
                  <span>
                    {TYPE_LABELS[textOf(delivery.type)] ?? textOf(delivery.type)}
                    <span className="sub">
                      <code title={textOf(delivery.id)}>{shortId(textOf(delivery.id))}</code>
                    </span>
                  </span>
                </th>
                <td data-label="Subject">{textOf(delivery.subject)}</td>
                <td data-label="State">
                  <span className={`delivery-state state-${state.toLowerCase()}`}>{state}</span>
                  {state === 'Delivered' && (
                    <span className="sub"> {timeText(delivery.deliveredTime)}</span>
                  )}
                </td>
                <td data-label="Attempts" className="num">
                  {textOf(delivery.attempts)}
                </td>
                <td data-label="First seen">{timeText(delivery.firstSeenTime)}</td>
                <td data-label="Last answer">
                  {code === '' ? '' : `HTTP ${code}`}
                  {code !== '' && error !== '' ? ': ' : ''}
                  {error}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
