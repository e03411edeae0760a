/**
 * A list of rows inside a fieldset (upstreams of a group, price overrides, model overrides): each
 * row its own labelled group with "Remove", and an "Add" button that takes the focus back after a
 * removal.
 */
import { useRef, type ReactNode } from 'react';

export function RowList<Row>(props: {
  legend: string;
  /** The name of one row, numbered: "Upstream 1". */
  itemLabel: string;
  addLabel: string;
  rows: Row[];
  hint?: string;
  error?: string | undefined;
  newRow: () => Row;
  onChange: (rows: Row[]) => void;
  render: (row: Row, update: (change: Partial<Row>) => void, index: number) => ReactNode;
}) {
  const add = useRef<HTMLButtonElement>(null);
  return (
    <fieldset className="row-list">
      <legend>{props.legend}</legend>
      {props.hint !== undefined && <p className="hint">{props.hint}</p>}
      {props.rows.map((row, index) => (
        <fieldset className="row" key={index}>
          <legend>
            {props.itemLabel} {index + 1}
          </legend>
          <div className="row-fields">
            {props.render(
              row,
              (change) => {
                props.onChange(
                  props.rows.map((item, at) => (at === index ? { ...item, ...change } : item)),
                );
              },
              index,
            )}
          </div>
          <button
            type="button"
            className="quiet"
            aria-label={`Remove ${props.itemLabel.toLowerCase()} ${index + 1}`}
            onClick={() => {
              props.onChange(props.rows.filter((_, at) => at !== index));
              add.current?.focus();
            }}
          >
            Remove
          </button>
        </fieldset>
      ))}
      {props.error !== undefined && (
        <p className="field-error" role="alert">
          {props.error}
        </p>
      )}
      <button
        ref={add}
        type="button"
        onClick={() => {
          props.onChange([...props.rows, props.newRow()]);
        }}
      >
        {props.addLabel}
      </button>
    </fieldset>
  );
}
