/** The accounts (namespaces) the user may read; a picker when there are several. */
import { useQuery } from '@tanstack/react-query';
import { consoleApi } from '../api/console-api.js';

export function useAccounts() {
  return useQuery({ queryKey: ['accounts'], queryFn: consoleApi.accounts });
}

export function AccountPicker(props: {
  value: string;
  onChange: (namespace: string) => void;
  error?: string | undefined;
}) {
  const accounts = useAccounts();
  const all = accounts.data?.items ?? [];
  const items = [
    ...all.filter((item) => item.hasAccount),
    ...all.filter((item) => !item.hasAccount),
  ];
  if (items.length <= 1 && items.every((item) => item.namespace === props.value)) return null;
  return (
    <label className="field">
      Account
      <select
        value={props.value}
        aria-invalid={props.error !== undefined}
        onChange={(event) => {
          props.onChange(event.target.value);
        }}
      >
        {items.map((item) => (
          <option key={item.namespace} value={item.namespace}>
            {item.displayName ?? item.namespace}
            {item.hasAccount ? '' : ' (no Account: keys are refused)'}
          </option>
        ))}
      </select>
      {props.error !== undefined && <span className="field-error">{props.error}</span>}
    </label>
  );
}
