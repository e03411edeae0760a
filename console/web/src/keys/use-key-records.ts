/**
 * The records page's state and reads: the filter form, the page size and the cursors of the pages
 * shown so far (the last one is the current page's; "Newer" goes back through them), and the
 * records, the key's models (for the model filter) and the key (for its label).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { usageQueries } from '../usage/usage-queries.js';
import { keyQueries, type KeyRef } from './key-queries.js';
import {
  EMPTY_FILTER,
  rangeProblem,
  recordFilterOf,
  type RecordFilterForm,
} from './record-filters.js';

export interface RecordPaging {
  pageSize: number;
  /** The index of the current page (0: the newest). */
  index: number;
  hasNewer: boolean;
  newer: () => void;
  older: (cursor: string) => void;
  /** A new page size starts again from the newest records. */
  resize: (pageSize: number) => void;
}

export function useKeyRecords(ref: KeyRef) {
  const [form, setForm] = useState<RecordFilterForm>(EMPTY_FILTER);
  const [pageSize, setPageSize] = useState<number>(50);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors.at(-1);
  const problem = rangeProblem(form);
  const filter = recordFilterOf(ref.name, form);
  const records = useQuery({
    ...usageQueries.records(ref.namespace, {
      filter,
      limit: pageSize,
      ...(cursor === undefined ? {} : { cursor }),
    }),
    enabled: problem === null,
    placeholderData: keepPreviousData,
  });
  const models = useQuery(usageQueries.keyModels(ref));
  // The key's label for the heading: the key page's own query, so coming from there costs nothing.
  const key = useQuery(keyQueries.detail(ref));
  /** A changed filter starts again from the newest records. */
  const change = (changes: Partial<RecordFilterForm>) => {
    setForm({ ...form, ...changes });
    setCursors([undefined]);
  };
  const paging: RecordPaging = {
    pageSize,
    index: cursors.length - 1,
    hasNewer: cursors.length > 1,
    newer: () => {
      setCursors(cursors.slice(0, -1));
    },
    older: (next) => {
      setCursors([...cursors, next]);
    },
    resize: (size) => {
      setPageSize(size);
      setCursors([undefined]);
    },
  };
  const modelNames = new Set(models.data?.models.map((model) => model.model) ?? []);
  if (form.model !== '') modelNames.add(form.model);
  return {
    form,
    change,
    problem,
    filter,
    records,
    modelNames,
    label: key.data?.displayName ?? ref.name,
    paging,
  };
}
