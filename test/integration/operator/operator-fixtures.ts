/** Manifests and object shapes the operator scenarios apply and read back. */
export interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
  lastTransitionTime: string;
}
export interface KubeObject {
  metadata: {
    uid: string;
    name: string;
    labels?: Record<string, string>;
    finalizers?: string[];
    ownerReferences?: { kind: string; uid: string; controller?: boolean }[];
  };
  type?: string;
  data?: Record<string, string>;
  status?: {
    conditions?: Condition[];
    keyHint?: string;
    lastHandledQuotaReset?: string;
    spentUSD?: string;
    balanceUSD?: string;
    observedGeneration?: number;
  };
}

export const GROUP = `
apiVersion: tollgate.dev/v1alpha1
kind: Group
metadata: { name: claude }
spec:
  platform: Anthropic
  rateMultiplier: "1.5"
  upstreamRefs: [{ name: anthropic-main }]
`;
export const UPSTREAM = `
apiVersion: v1
kind: Secret
metadata: { name: anthropic-credentials, namespace: tollgate-system }
stringData: { apiKey: upstream-secret-value }
---
apiVersion: tollgate.dev/v1alpha1
kind: Upstream
metadata: { name: anthropic-main }
spec:
  platform: Anthropic
  baseURL: http://127.0.0.1:9
  credentials:
    type: APIKey
    apiKey: { secretRef: { name: anthropic-credentials, key: apiKey } }
`;
export const account = (namespace: string) => `
apiVersion: tollgate.dev/v1alpha1
kind: Account
metadata: { name: default, namespace: ${namespace} }
spec: { creditUSD: "100" }
`;
export const apiKey = (namespace: string, name: string, extra = '') => `
apiVersion: tollgate.dev/v1alpha1
kind: ApiKey
metadata: { name: ${name}, namespace: ${namespace} }
spec:
  displayName: ${name}
  groupName: claude
${extra}`;

export function decode(secret: KubeObject, key = 'apiKey'): string {
  return Buffer.from(secret.data?.[key] ?? '', 'base64').toString('utf8');
}
