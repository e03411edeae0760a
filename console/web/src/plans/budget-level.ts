/**
 * Pure: how full a plan window or member budget is, and why the gateway refuses a key's calls
 * (the three budget refusals) as far as the console can tell from the Account's status and the
 * member spend. The gateway decides each call; these words explain its refusals.
 */
import type { SubscriptionStanding } from '../api/usage-api.js';

/** `warning` from 80 % of the cap, `exhausted` at 100 % (the gateway's alerts use the same marks). */
export type BudgetLevel = 'ok' | 'warning' | 'exhausted';

export const WINDOW_LABELS: Record<string, string> = {
  FiveHour: '5 hours',
  Daily: 'Today',
  Weekly: 'This week',
  Monthly: 'This month',
};

/** A window as named in a sentence: "the plan's daily window". */
const WINDOW_ADJECTIVES: Record<string, string> = {
  FiveHour: '5-hour',
  Daily: 'daily',
  Weekly: 'weekly',
  Monthly: 'monthly',
};

export function budgetLevel(used: number, cap: number | null): BudgetLevel {
  if (cap === null) return 'ok';
  if (cap <= 0 || used >= cap) return 'exhausted';
  return used >= cap * 0.8 ? 'warning' : 'ok';
}

/** "80 % used", "Used up"; '' below 80 %. */
export function levelText(level: BudgetLevel): string {
  if (level === 'exhausted') return 'Used up';
  if (level === 'warning') return 'Over 80 % used';
  return '';
}

/** A money text as a number; null when absent or unreadable. */
export function amountOf(text: string | null | undefined): number | null {
  if (text === null || text === undefined || text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

export interface Refusal {
  code: 'TG_SUBSCRIPTION_EXPIRED' | 'TG_SUBSCRIPTION_EXHAUSTED' | 'TG_MEMBER_BUDGET_EXHAUSTED';
  /** Plain words: what is used up and when calls are admitted again. */
  text: string;
}

export interface RefusalInput {
  subscription: SubscriptionStanding | null;
  /** The account has a balance left (it pays after the subscription's end). */
  hasBalance: boolean;
  /** The key owner's spend and limits (today, 7 and 30 days against day, week and month). */
  member: { owner: string; spent: [string, number, string | null][] } | null;
  now: number;
}

/**
 * The refusals a call of the key meets now, in the gateway's order of checks (member, then
 * subscription); empty when none is known.
 */
export function refusalsOf(input: RefusalInput): Refusal[] {
  const found: Refusal[] = [];
  for (const [label, spent, limit] of input.member?.spent ?? []) {
    const cap = amountOf(limit);
    if (cap !== null && budgetLevel(spent, cap) === 'exhausted') {
      found.push({
        code: 'TG_MEMBER_BUDGET_EXHAUSTED',
        text: `${input.member?.owner ?? ''}'s member budget ${label} is used up: every key they own is refused until it resets.`,
      });
      break;
    }
  }
  const subscription = input.subscription;
  if (subscription === null) return found;
  const ended = subscription.endTime !== null && Date.parse(subscription.endTime) <= input.now;
  if ((ended || subscription.state === 'Expired') && !input.hasBalance) {
    found.push({
      code: 'TG_SUBSCRIPTION_EXPIRED',
      text: `The subscription to ${subscription.planName} has ended and the account has no balance: calls are refused (not worth retrying) until an administrator renews it.`,
    });
    return found;
  }
  for (const window of subscription.windows) {
    if (budgetLevel(Number(window.usedUSD), amountOf(window.capUSD)) !== 'exhausted') continue;
    const reset =
      window.resetTime === null ? '' : ` until ${new Date(window.resetTime).toLocaleString()}`;
    found.push({
      code: 'TG_SUBSCRIPTION_EXHAUSTED',
      text: `The plan's ${WINDOW_ADJECTIVES[window.name] ?? window.name} window is used up: calls are refused${reset}.`,
    });
    break;
  }
  return found;
}
