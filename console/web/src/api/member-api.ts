/** The members usage call: spend per key owner over today, 7 and 30 days, with the member limits. */
import type { MemberSpend } from '../../../server/routes/member-schemas.js';
import { callApi, segment } from './console-api.js';

export type { MemberSpend };

export const memberApi = {
  spend: (namespace: string) =>
    callApi<MemberSpend>(`/accounts/${segment(namespace)}/usage/members`),
};
