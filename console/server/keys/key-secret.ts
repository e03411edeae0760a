/**
 * The Secret holding a key value, created by the console as the signed-in user (a key manager may
 * create Secrets but not read them), labelled for the ApiKey so the operator accepts it.
 */
import { API_KEY_NAME_LABEL, API_KEY_SECRET_TYPE } from '../../../crds/schema/resources.js';
import type { UserKube } from '../kubernetes/user-kube.js';

export async function createKeySecret(
  kube: UserKube,
  secret: {
    namespace: string;
    name: string;
    apiKeyName: string;
    value: string;
    owner?: { name: string; uid: string };
  },
): Promise<void> {
  await kube.create(
    { kind: 'Secret', namespace: secret.namespace },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      type: API_KEY_SECRET_TYPE,
      metadata: {
        name: secret.name,
        namespace: secret.namespace,
        labels: {
          [API_KEY_NAME_LABEL]: secret.apiKeyName,
          'app.kubernetes.io/managed-by': 'tollgate-console',
        },
        ...(secret.owner === undefined
          ? {}
          : {
              ownerReferences: [
                {
                  apiVersion: 'tollgate.dev/v1alpha1',
                  kind: 'ApiKey',
                  name: secret.owner.name,
                  uid: secret.owner.uid,
                  controller: true,
                },
              ],
            }),
      },
      stringData: { apiKey: secret.value },
    },
  );
}
