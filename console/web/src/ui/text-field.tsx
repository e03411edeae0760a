/** A labelled input or textarea with its hint and error, wired for screen readers. */
import { useId } from 'react';

export function TextField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: string | undefined;
  hint?: string;
  multiline?: boolean;
  type?: string;
  inputMode?: 'decimal' | 'numeric' | 'text';
  required?: boolean;
  placeholder?: string;
  autoComplete?: string;
}) {
  const id = useId();
  const describedBy = [
    props.hint === undefined ? '' : `${id}-hint`,
    props.error === undefined ? '' : `${id}-error`,
  ]
    .filter((part) => part !== '')
    .join(' ');
  const common = {
    id,
    value: props.value,
    'aria-invalid': props.error !== undefined,
    'aria-describedby': describedBy === '' ? undefined : describedBy,
    required: props.required,
    placeholder: props.placeholder,
    onBlur: props.onBlur,
  };
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.multiline === true ? (
        <textarea
          {...common}
          rows={3}
          spellCheck={false}
          onChange={(event) => {
            props.onChange(event.target.value);
          }}
        />
      ) : (
        <input
          {...common}
          type={props.type ?? 'text'}
          inputMode={props.inputMode}
          autoComplete={props.autoComplete ?? 'off'}
          spellCheck={false}
          onChange={(event) => {
            props.onChange(event.target.value);
          }}
        />
      )}
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
