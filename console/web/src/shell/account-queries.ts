/** The accounts (namespaces) the user may read (GET /accounts): the app's start and its pickers. */
import { queryOptions } from '@tanstack/react-query';
import { consoleApi } from '../api/console-api.js';

export const accountKeys = {
  list: () => ['accounts'] as const,
};

export const accountQueries = {
  list: () => queryOptions({ queryKey: accountKeys.list(), queryFn: consoleApi.accounts }),
};
