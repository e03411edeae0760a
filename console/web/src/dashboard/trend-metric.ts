/** What the trend chart shows: cost, requests or tokens. */
export type TrendMetric = 'cost' | 'requests' | 'tokens';

export const METRIC_LABELS: Record<TrendMetric, string> = {
  cost: 'Cost',
  requests: 'Requests',
  tokens: 'Tokens',
};
