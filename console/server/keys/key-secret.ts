/**
 * The Secret holding a key value, created by the console as the signed-in user (a key manager may
 * create Secrets but not read them), labelled for the ApiKey so the operator accepts it. Its name
 * is `<key>-key-<random suffix>`, new on each creation and rotation.
 */
import {
  API_KEY_NAME_LABEL,
  API_KEY_SECRET_TYPE,
  type ApiKey,
} from '../../../crds/schema/resources.js';
import type { UserKube } from '../kubernetes/user-kube.js';
import { randomSuffix } from './generate-key-value.js';

/** The Secret a key reads its value from: spec.secretName, by default `<key>-key`. */
export function keySecretName(key: ApiKey): string {
  return key.spec.secretName ?? `${key.metadata.name}-key`;
}

/** Creates the Secret and returns its name. */
export async function createKeySecret(
  kube: UserKube,
  secret: {
    namespace: string;
    apiKeyName: string;
    value: string;
    owner?: { name: string; uid: string };
  },
): Promise<string> {
  const name = `${secret.apiKeyName}-key-${randomSuffix()}`;
  await kube.create(
    { kind: 'Secret', namespace: secret.namespace },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      type: API_KEY_SECRET_TYPE,
      metadata: {
        name,
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
  return name;
}
