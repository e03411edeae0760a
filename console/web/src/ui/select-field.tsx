/** A labelled select with its hint and error, wired for screen readers. */
import { useId } from 'react';

export function SelectField(props: {
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
  error?: string | undefined;
  hint?: string | undefined;
  disabled?: boolean;
  required?: boolean;
}) {
  const id = useId();
  const describedBy = [
    props.hint === undefined ? '' : `${id}-hint`,
    props.error === undefined ? '' : `${id}-error`,
  ]
    .filter((part) => part !== '')
    .join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        value={props.value}
        disabled={props.disabled}
        required={props.required}
        aria-invalid={props.error !== undefined}
        aria-describedby={describedBy === '' ? undefined : describedBy}
        onChange={(event) => {
          props.onChange(event.target.value);
        }}
      >
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {props.hint !== undefined && (
        <span className="hint" id={`${id}-hint`}>
          {props.hint}
        </span>
      )}
      {props.error !== undefined && (
        <span className="field-error" id={`${id}-error`} role="alert">
          {props.error}
        </span>
      )}
    </div>
  );
}
