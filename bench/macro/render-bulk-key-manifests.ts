/**
 * The manifests of the bulk key benchmark: the world the keys live in (a namespace, an upstream with
 * its credential Secret, a group, an account, the probe key that is suspended mid-import) and the
 * bulk itself, N ApiKeys as one multi-document YAML file for a single `kubectl apply -f`. Pure.
 */
export const BULK_NAMESPACE = 'bulk';
export const PROBE_KEY = 'probe';

export function renderBulkWorld(options: { providerUrl: string }): string {
  const credential = Buffer.from('fake-upstream-key').toString('base64');
  return [
    `apiVersion: v1
kind: Namespace
metadata:
  name: ${BULK_NAMESPACE}`,
    `apiVersion: v1
kind: Secret
metadata:
  name: bulk-upstream-credentials
  namespace: tollgate-system
type: Opaque
data:
  apiKey: ${credential}`,
    `apiVersion: tollgate.dev/v1alpha1
kind: Upstream
metadata:
  name: bulk-openai
spec:
  platform: OpenAI
  baseURL: ${options.providerUrl}
  credentials:
    type: APIKey
    apiKey:
      secretRef:
        name: bulk-upstream-credentials
        key: apiKey
  chatCompletions: Native`,
    `apiVersion: tollgate.dev/v1alpha1
kind: Group
metadata:
  name: bulk-openai
spec:
  platform: OpenAI
  upstreamRefs:
    - name: bulk-openai`,
    `apiVersion: tollgate.dev/v1alpha1
kind: Account
metadata:
  name: default
  namespace: ${BULK_NAMESPACE}
spec:
  creditUSD: '1000'`,
    renderApiKey(PROBE_KEY),
  ].join('\n---\n');
}

function renderApiKey(name: string): string {
  return `apiVersion: tollgate.dev/v1alpha1
kind: ApiKey
metadata:
  name: ${name}
  namespace: ${BULK_NAMESPACE}
spec:
  groupName: bulk-openai
  limits:
    quotaUSD: '5'`;
}

export function bulkKeyName(index: number): string {
  return `bulk-${String(index).padStart(5, '0')}`;
}

/** N ApiKeys in one file: `bulk-00000` ... */
export function renderBulkKeys(count: number): string {
  const documents: string[] = [];
  for (let index = 0; index < count; index++) documents.push(renderApiKey(bulkKeyName(index)));
  return `${documents.join('\n---\n')}\n`;
}
