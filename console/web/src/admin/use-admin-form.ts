/**
 * The state every admin form shares: the input, a problem found before sending, the save and where
 * its refusal is shown. Changing any input clears the problem and the last refusal; a save sends
 * the generation the form was filled from, so a concurrent change is refused instead of lost.
 */
import { useState } from 'react';
import type { AdminKind, AdminObject, AdminWrite } from '../api/admin-api.js';
import { localError, placeError } from './field-errors.js';
import type { FormProblem } from './spec-values.js';
import { useAdminSave } from './use-admin-save.js';

export function useAdminForm<Form>(input: {
  kind: AdminKind;
  current: AdminObject | undefined;
  initial: () => Form;
  paths: readonly string[];
}) {
  const editing = input.current !== undefined;
  const [form, setForm] = useState<Form>(input.initial);
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const save = useAdminSave(input.kind, editing);
  const update = (change: Partial<Form>) => {
    setForm((previous) => ({ ...previous, ...change }));
    setProblem(null);
    if (save.error !== null) save.reset();
  };
  const shown = placeError(problem === null ? save.error : localError(problem), input.paths);
  const generation = input.current?.generation;
  const send = (name: string, body: AdminWrite) => {
    save.mutate({
      name,
      body: { ...body, ...(generation === undefined ? {} : { generation }) },
    });
  };
  return { editing, form, update, setProblem, shown, save, send };
}
