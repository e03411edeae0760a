/** The accounts API's answer (zod): a namespace with its Account's balance, spend and limit. */
import { z } from 'zod';

export const accountViewSchema = z.object({
  namespace: z.string(),
  displayName: z.string().nullable(),
  creditUSD: z.string().nullable(),
  spentUSD: z.string().nullable(),
  balanceUSD: z.string().nullable(),
  maxConcurrentRequests: z.number().nullable(),
  ready: z.object({ status: z.string(), reason: z.string().nullable() }).nullable(),
  /** False when the namespace has no Account (its keys are refused) or it is not readable. */
  hasAccount: z.boolean(),
});
export type AccountView = z.output<typeof accountViewSchema>;

export const accountListSchema = z.object({ items: z.array(accountViewSchema) });
