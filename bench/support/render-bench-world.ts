/**
 * The resources targets E and F of the side-by-side bench apply through a control plane, so the
 * operator programs the gateway from them as in a cluster: the mock upstream as an OpenAI Upstream
 * (Chat Completions forwarded natively) with its credential Secret in the operator namespace, a
 * Group, an Account with a balance and a concurrency limit, and one ApiKey whose value is chosen
 * (a Secret), with every admission feature the seeded target D has: quota and the three windows,
 * an address allow-list and deny-list, key concurrency. Pure.
 */
export const BENCH_WORLD_NAMESPACE = 'bench';
export const BENCH_WORLD_KEY = 'bench-openai';
const LARGE_USD = "'999999'";

export function renderBenchWorld(options: {
  upstreamUrl: string;
  /** The key value callers send (`Authorization: Bearer ...`). */
  keyValue: string;
  /** Where the operator reads Upstream credential Secrets. */
  operatorNamespace?: string;
  upstreamKey?: string;
}): string {
  const system = options.operatorNamespace ?? 'tollgate-system';
  const upstreamKey = Buffer.from(options.upstreamKey ?? 'fake-upstream-key').toString('base64');
  const keyValue = Buffer.from(options.keyValue).toString('base64');
  return [
    `apiVersion: v1
kind: Namespace
metadata:
  name: ${BENCH_WORLD_NAMESPACE}`,
    `apiVersion: v1
kind: Secret
metadata:
  name: bench-upstream-credentials
  namespace: ${system}
type: Opaque
data:
  apiKey: ${upstreamKey}`,
    `apiVersion: tollgate.dev/v1alpha1
kind: Upstream
metadata:
  name: bench-openai
spec:
  platform: OpenAI
  baseURL: ${options.upstreamUrl}
  credentials:
    type: APIKey
    apiKey:
      secretRef:
        name: bench-upstream-credentials
        key: apiKey
  chatCompletions: Native`,
    `apiVersion: tollgate.dev/v1alpha1
kind: Group
metadata:
  name: bench-openai
spec:
  platform: OpenAI
  upstreamRefs:
    - name: bench-openai`,
    `apiVersion: tollgate.dev/v1alpha1
kind: Account
metadata:
  name: default
  namespace: ${BENCH_WORLD_NAMESPACE}
spec:
  creditUSD: ${LARGE_USD}
  maxConcurrentRequests: 100000`,
    `apiVersion: v1
kind: Secret
metadata:
  name: ${BENCH_WORLD_KEY}-value
  namespace: ${BENCH_WORLD_NAMESPACE}
type: Opaque
data:
  value: ${keyValue}`,
    `apiVersion: tollgate.dev/v1alpha1
kind: ApiKey
metadata:
  name: ${BENCH_WORLD_KEY}
  namespace: ${BENCH_WORLD_NAMESPACE}
spec:
  groupName: bench-openai
  secretName: ${BENCH_WORLD_KEY}-value
  secretKey: value
  limits:
    quotaUSD: ${LARGE_USD}
    fiveHourUSD: ${LARGE_USD}
    dailyUSD: ${LARGE_USD}
    sevenDayUSD: ${LARGE_USD}
  sourceRanges:
    allow:
      - 127.0.0.1/32
    deny:
      - 10.0.0.0/8
  maxConcurrentRequests: 100000`,
  ].join('\n---\n');
}
