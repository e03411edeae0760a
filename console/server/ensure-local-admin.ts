/**
 * Local mode's first administrator: on the first start, the user `admin` with a random password,
 * written once to `<data>/console-admin-password` (mode 0600) and returned so the launcher prints
 * it; the user goes into the local users Secret and is bound to `cluster-admin` (a single-person
 * install: the admin may also create key Secrets and upstream credentials in any namespace). Later
 * starts leave an existing `admin` alone.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashPassword } from './auth/hash-password.js';
import { readLocalUsers, USERS_KEY, type LocalUser } from './auth/local-users.js';
import { KubeApiError, type KubeClient } from './kubernetes/kube-client.js';
import { resourcePath } from './kubernetes/resource-paths.js';

export const ADMIN_USER = 'admin';
export const ADMIN_PASSWORD_FILE = 'console-admin-password';
export const ADMIN_BINDING = 'tollgate-console-admin';

async function ignoreConflict(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof KubeApiError && error.status === 409)) throw error;
  }
}

/** Returns the new password when the admin was created now, else undefined. */
export async function ensureLocalAdmin(
  client: KubeClient,
  options: { dataDirectory: string; namespace: string; secretName: string },
): Promise<string | undefined> {
  const ref = { namespace: options.namespace, name: options.secretName };
  const users = await readLocalUsers(client, ref);
  const passwordFile = join(options.dataDirectory, ADMIN_PASSWORD_FILE);
  let password: string | undefined;
  if (!users.some((user) => user.username === ADMIN_USER)) {
    password = randomBytes(18).toString('base64url');
    const admin: LocalUser = {
      username: ADMIN_USER,
      passwordHash: await hashPassword(password),
      groups: ['tollgate-admins'],
    };
    const data = {
      [USERS_KEY]: Buffer.from(JSON.stringify([...users, admin], null, 2)).toString('base64'),
    };
    await ignoreConflict(() =>
      client.call({
        method: 'POST',
        path: resourcePath({ kind: 'Namespace' }),
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: options.namespace } },
      }),
    );
    if (users.length === 0) {
      await ignoreConflict(() =>
        client.call({
          method: 'POST',
          path: resourcePath({ kind: 'Secret', namespace: options.namespace }),
          body: {
            apiVersion: 'v1',
            kind: 'Secret',
            type: 'Opaque',
            metadata: { name: options.secretName, namespace: options.namespace },
            data,
          },
        }),
      );
    }
    await client.call({
      method: 'PATCH',
      path: resourcePath({ kind: 'Secret', ...ref }),
      body: { data },
      contentType: 'application/merge-patch+json',
    });
    writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  }
  await ignoreConflict(() =>
    client.call({
      method: 'POST',
      path: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: ADMIN_BINDING, labels: { 'app.kubernetes.io/part-of': 'tollgate' } },
        roleRef: {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'ClusterRole',
          name: 'cluster-admin',
        },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: ADMIN_USER }],
      },
    }),
  );
  return password;
}
