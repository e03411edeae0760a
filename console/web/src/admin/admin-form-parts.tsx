/**
 * Pieces every admin form page shares: loading the object to edit (or none, to create), the name
 * (typed when creating, fixed once it exists) and the Save/Create and Cancel actions with the
 * refusal no field claims.
 */
import { useQuery } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import { Link } from 'wouter';
import { type AdminKind, type AdminObject } from '../api/admin-api.js';
import { TextField } from '../ui/text-field.js';
import { ErrorNote } from '../ui/error-note.js';
import { PLATFORM_OPTIONS } from './platforms.js';
import { SelectField } from '../ui/select-field.js';
import type { FormProblem } from './spec-values.js';
import { adminQueries } from './admin-queries.js';

/** Loads the list of `kind`, finds the object to edit and renders the form, fresh per generation. */
export function AdminFormLoader(props: {
  kind: AdminKind;
  /** Whether an object is asked for (editing) rather than none (creating). */
  wanted: boolean;
  find: (item: AdminObject) => boolean;
  missing: ReactNode;
  render: (current: AdminObject | undefined) => ReactNode;
}) {
  const list = useQuery({
    ...adminQueries.list(props.kind),
  });
  if (list.error !== null) return <ErrorNote error={list.error} />;
  if (list.data === undefined) return <p role="status">{`Loading ${props.kind}…`}</p>;
  const current = list.data.items.find(props.find);
  if (props.wanted && current === undefined) return <p role="alert">{props.missing}</p>;
  return <Fragment key={current?.generation ?? 'new'}>{props.render(current)}</Fragment>;
}

export function FormActions(props: {
  editing: boolean;
  pending: boolean;
  cancelHref: string;
  rest: Error | null;
}) {
  return (
    <>
      <div className="actions">
        <button type="submit" className="primary" disabled={props.pending}>
          {props.editing ? 'Save' : 'Create'}
        </button>
        <Link href={props.cancelHref} className="button quiet">
          Cancel
        </Link>
      </div>
      {props.rest !== null && <ErrorNote error={props.rest} />}
    </>
  );
}

/** The object's name: typed when creating, shown as fixed text when editing. */
export function NameField(props: {
  editing: boolean;
  label: string;
  value: string;
  error: string | undefined;
  hint: string;
  onChange: (value: string) => void;
}) {
  if (props.editing) {
    return (
      <p className="fixed">
        <span className="hint">{props.label}</span> {props.value}
      </p>
    );
  }
  return (
    <TextField
      label={props.label}
      required
      value={props.value}
      error={props.error}
      hint={props.hint}
      onChange={props.onChange}
    />
  );
}

/** The platform of a Group or Upstream: chosen when creating, fixed once the object exists. */
export function PlatformField(props: {
  editing: boolean;
  /** "group" or "upstream". */
  noun: string;
  value: string;
  error: string | undefined;
  hint: string;
  onChange: (value: string) => void;
}) {
  return (
    <SelectField
      label="Platform"
      required
      value={props.value}
      disabled={props.editing}
      hint={props.editing ? `Fixed once the ${props.noun} exists.` : props.hint}
      error={props.error}
      options={[{ value: '', label: 'Choose…' }, ...PLATFORM_OPTIONS]}
      onChange={props.onChange}
    />
  );
}

/** What a Group or Upstream form misses before anything else: a name, then a platform. */
export function namePlatformProblem(form: { name: string; platform: string }): FormProblem | null {
  if (form.name.trim() === '') return { field: 'name', message: 'Enter a name.' };
  if (form.platform === '') return { field: 'spec.platform', message: 'Choose a platform.' };
  return null;
}
