/**
 * Test support for the console's browser tests: a local user added to the console's users Secret
 * (read again at every sign-in), bound to a persona ClusterRole in a namespace and to the
 * cluster-wide group reader (docs/rbac.md).
 */
import { hashPassword } from '../../../console/server/auth/hash-password.js';
import type { LocalConsole } from './browser-steps.js';

export async function addLocalUser(
  run: LocalConsole,
  user: { username: string; password: string; role: string; namespace: string },
): Promise<void> {
  const secret = ['secret', 'tollgate-console-users', '-n', 'tollgate-system'];
  const encoded = await run.local.kubectl([
    'get',
    ...secret,
    '-o',
    'jsonpath={.data.users\\.json}',
  ]);
  const users = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as unknown[];
  users.push({
    username: user.username,
    passwordHash: await hashPassword(user.password),
    groups: [],
  });
  const data = { 'users.json': Buffer.from(JSON.stringify(users)).toString('base64') };
  await run.local.kubectl(['patch', ...secret, '--type', 'merge', '-p', JSON.stringify({ data })]);
  await run.local.kubectl([
    'create',
    'rolebinding',
    `${user.username}-${user.role}`,
    '--clusterrole',
    user.role,
    '--user',
    user.username,
    '-n',
    user.namespace,
  ]);
  await run.local.kubectl([
    'create',
    'clusterrolebinding',
    `${user.username}-groups`,
    '--clusterrole',
    'tollgate-group-reader',
    '--user',
    user.username,
  ]);
}
