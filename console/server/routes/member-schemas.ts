/** The members usage API's answer (zod): spend per key owner with the Account's member limits. */
import { z } from 'zod';

export const memberSpendSchema = z.object({
  namespace: z.string(),
  /** The signed-in user (the owner the console sets on the keys they create). */
  viewer: z.string(),
  /**
   * `all`: every owner (the user may update the namespace's Account, an account administrator);
   * `own`: only the viewer's own spend (a key manager or viewer does not see other members').
   */
  scope: z.enum(['all', 'own']),
  timeZone: z.string(),
  memberLimits: z.object({
    dailyUSD: z.string().nullable(),
    weeklyUSD: z.string().nullable(),
    monthlyUSD: z.string().nullable(),
  }),
  members: z.array(
    z.object({
      owner: z.string(),
      todayUSD: z.number(),
      sevenDaysUSD: z.number(),
      thirtyDaysUSD: z.number(),
      requests30Days: z.number(),
    }),
  ),
});
export type MemberSpend = z.output<typeof memberSpendSchema>;
