/**
 * The accounts (namespaces) the user may read; a picker when there are several. It lists the
 * namespaces that have an Account (the gateway refuses the keys of the others); an administrator
 * (who may create Accounts) sees the others in a "Without an Account" group, and a link to create
 * the Account of the chosen one.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { type AccountView } from '../api/console-api.js';
import { useAccess } from '../auth/use-access.js';
import { accountQueries } from '../shell/account-queries.js';
import './account-picker.css';

export function useAccounts() {
  return useQuery(accountQueries.list());
}

/** Pure: the picker's two groups; the current namespace is always listed (it is selected). */
export function pickerGroups(
  items: readonly AccountView[],
  options: { value: string; administer: boolean },
): { withAccount: AccountView[]; withoutAccount: AccountView[] } {
  const shown = (item: AccountView) => options.administer || item.namespace === options.value;
  return {
    withAccount: items.filter((item) => item.hasAccount),
    withoutAccount: items.filter((item) => !item.hasAccount && shown(item)),
  };
}

const nameOf = (item: AccountView) => item.displayName ?? item.namespace;

export function AccountPicker(props: {
  value: string;
  onChange: (namespace: string) => void;
  error?: string | undefined;
}) {
  const accounts = useAccounts();
  const access = useAccess();
  const administer = access?.accounts.create === true;
  const { withAccount, withoutAccount } = pickerGroups(accounts.data?.items ?? [], {
    value: props.value,
    administer,
  });
  const missing = withoutAccount.find((item) => item.namespace === props.value);
  const canCreate = administer && missing !== undefined;
  // Nothing to choose and nothing to create: no picker.
  const choices = [...withAccount, ...withoutAccount];
  if (!canCreate && choices.every((item) => item.namespace === props.value)) return null;
  return (
    <div className="account-picker">
      <label className="field">
        Account
        <select
          value={props.value}
          aria-invalid={props.error !== undefined}
          onChange={(event) => {
            props.onChange(event.target.value);
          }}
        >
          {withAccount.map((item) => (
            <option key={item.namespace} value={item.namespace}>
              {nameOf(item)}
            </option>
          ))}
          {withoutAccount.length > 0 && (
            <optgroup label="Without an Account">
              {withoutAccount.map((item) => (
                <option key={item.namespace} value={item.namespace}>
                  {item.namespace} (keys are refused)
                </option>
              ))}
            </optgroup>
          )}
        </select>
        {props.error !== undefined && <span className="field-error">{props.error}</span>}
      </label>
      {canCreate && (
        <Link
          className="picker-create"
          href={`/admin/accounts/new?namespace=${encodeURIComponent(props.value)}`}
        >
          Create the Account of {props.value}
        </Link>
      )}
    </div>
  );
}
