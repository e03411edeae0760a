/**
 * Local console users: one Secret (default `tollgate-console-users` in the operator namespace) whose
 * key `users.json` holds `[{ "username", "passwordHash", "groups" }]`. The console reads it with its
 * own identity at each sign-in, so edits apply without a restart.
 */
import { z } from 'zod';
import type { KubeClient } from '../kubernetes/kube-client.js';
import { KubeApiError } from '../kubernetes/kube-client.js';
import { resourcePath } from '../kubernetes/resource-paths.js';
import { dummyPasswordHash, verifyPassword } from './hash-password.js';

export const USERS_KEY = 'users.json';

export const localUserSchema = z.object({
  username: z
    .string()
    .min(1)
    .max(253)
    .regex(/^[^:\s]+$/, 'no spaces or colons'),
  passwordHash: z.string().startsWith('scrypt$'),
  groups: z.array(z.string().min(1).max(253)).max(100).default([]),
});
export type LocalUser = z.infer<typeof localUserSchema>;

export const localUsersSchema = z.array(localUserSchema).max(10_000);

export interface LocalUsersSecretRef {
  namespace: string;
  name: string;
}

export async function readLocalUsers(
  client: KubeClient,
  ref: LocalUsersSecretRef,
): Promise<LocalUser[]> {
  let secret: { data?: Record<string, string> };
  try {
    secret = await client.call({
      method: 'GET',
      path: resourcePath({ kind: 'Secret', namespace: ref.namespace, name: ref.name }),
    });
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 404) return [];
    throw error;
  }
  const encoded = secret.data?.[USERS_KEY];
  if (encoded === undefined) return [];
  const parsed = localUsersSchema.safeParse(
    JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')),
  );
  if (!parsed.success) throw new Error(`Secret ${ref.name}: ${USERS_KEY} is not a valid user list`);
  return parsed.data;
}

/** The user whose password matches, or undefined; an unknown name costs as much as a known one. */
export async function checkLocalPassword(
  users: readonly LocalUser[],
  attempt: { username: string; password: string },
): Promise<LocalUser | undefined> {
  const user = users.find((candidate) => candidate.username === attempt.username);
  const hash = user?.passwordHash ?? (await dummyPasswordHash());
  const valid = await verifyPassword(attempt.password, hash);
  return valid && user !== undefined ? user : undefined;
}
