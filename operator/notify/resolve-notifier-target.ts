/**
 * Where a notifier sends, read from its Secret: the webhook URL with its signing secret, or the
 * Slack incoming-webhook URL (the Secret's value). A Notifier's Secret is in its own namespace, a
 * ClusterNotifier's in the operator namespace. Refused URLs (guard-target-url.ts) resolve to an
 * error the status shows.
 */
import type { ClusterNotifierSpec } from '../../crds/schema/resources.js';
import { decodeSecretData, type SecretObject } from '../read-resource.js';
import { guardTargetUrl, type TargetGuard } from './guard-target-url.js';

export type NotifierTarget =
  { kind: 'webhook'; url: URL; signingSecret: string } | { kind: 'slack'; url: URL };

export type ResolvedTarget =
  | { ok: true; target: NotifierTarget }
  | { ok: false; reason: 'SecretMissing' | 'URLRefused'; message: string };

export function resolveNotifierTarget(input: {
  spec: ClusterNotifierSpec;
  secretNamespace: string;
  readSecret: (namespace: string, name: string) => SecretObject | undefined;
  guard: TargetGuard;
}): ResolvedTarget {
  const { spec, secretNamespace } = input;
  const ref = spec.webhook?.signingSecretRef ?? spec.slack?.webhookURLSecretRef;
  if (ref === undefined) {
    return { ok: false, reason: 'URLRefused', message: 'neither webhook nor slack is set' };
  }
  const secret = input.readSecret(secretNamespace, ref.name);
  const value = secret === undefined ? undefined : decodeSecretData(secret)[ref.key];
  if (value === undefined || value.trim() === '') {
    return {
      ok: false,
      reason: 'SecretMissing',
      message: `Secret ${secretNamespace}/${ref.name} has no key ${ref.key}`,
    };
  }
  const urlText = spec.webhook?.url ?? value.trim();
  const guarded = guardTargetUrl(urlText, input.guard);
  if (!guarded.ok) {
    // The Slack URL is a credential: the message never repeats it.
    return {
      ok: false,
      reason: 'URLRefused',
      message: `the target URL is refused: ${guarded.reason}`,
    };
  }
  return {
    ok: true,
    target:
      spec.webhook === undefined
        ? { kind: 'slack', url: guarded.url }
        : { kind: 'webhook', url: guarded.url, signingSecret: value },
  };
}
