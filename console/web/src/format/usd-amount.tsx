/**
 * An amount of money as the page shows it (format-usd.ts), with the exact amount on hover (its
 * title) and on keyboard focus (it takes the figure's place while focused); screen readers hear
 * both. A figure that is already exact is plain text, with no extra stop for the keyboard.
 */
import { describeUsd } from './format-usd.js';
import './usd-amount.css';

export function UsdAmount(props: { value: string | null }) {
  if (props.value === null) return <>—</>;
  const figure = describeUsd(props.value);
  if (figure === null) return <>{props.value}</>;
  if (!figure.rounded) return <>{figure.shown}</>;
  return (
    <data
      className="usd"
      value={figure.exact.replace(/[$,]/g, '')}
      title={`Exactly ${figure.exact}`}
      tabIndex={0}
    >
      <span className="usd-shown">{figure.shown}</span>
      <span className="usd-exact">
        <span className="visually-hidden"> exactly </span>
        {figure.exact}
      </span>
    </data>
  );
}
