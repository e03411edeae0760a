/** The Account form (pure): one Account per namespace (named `default`). */
import { compact, decimalValue, integerValue, textOf } from './spec-values.js';

export interface AccountForm {
  namespace: string;
  displayName: string;
  /** Empty: no balance limit; 0: no credit. */
  creditUSD: string;
  /** Empty or 0: unlimited. */
  maxConcurrentRequests: string;
}

export function accountFormFrom(
  namespace: string,
  spec: Record<string, unknown> | undefined,
): AccountForm {
  return {
    namespace,
    displayName: textOf(spec?.displayName),
    creditUSD: textOf(spec?.creditUSD),
    maxConcurrentRequests: textOf(spec?.maxConcurrentRequests),
  };
}

export function accountSpecFrom(form: AccountForm): Record<string, unknown> {
  const credit = decimalValue(form.creditUSD);
  return (
    compact({
      displayName: form.displayName.trim() === '' ? undefined : form.displayName.trim(),
      // Money is sent as typed (a string): "0.50" keeps its decimals.
      creditUSD: credit === undefined ? undefined : form.creditUSD.trim(),
      maxConcurrentRequests: integerValue(form.maxConcurrentRequests),
    }) ?? {}
  );
}
