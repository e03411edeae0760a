/**
 * Where a notifier sends, read from its Secret: the webhook URL with its signing secret, or the
 * Slack incoming-webhook URL (the Secret's value). A Notifier's Secret is in its own namespace and
 * must be marked for notifiers (label `tollgate.dev/notifier-secret: "true"`) or owned by that
 * Notifier: whoever may write Notifiers but not read Secrets cannot make the operator send another
 * Secret's value. One message covers "missing", "no such key" and "not marked", so the status
 * tells nothing about Secrets the notifier may not use. A ClusterNotifier's Secret is in the
 * operator namespace (administrators only). Refused URLs (guard-target-url.ts) resolve to an
 * error the status shows.
 */
import { NOTIFIER_SECRET_LABEL, type ClusterNotifierSpec } from '../../crds/schema/resources.js';
import { decodeSecretData, type SecretObject } from '../read-resource.js';
import { guardTargetUrl, type TargetGuard } from './guard-target-url.js';

export type NotifierTarget =
  { kind: 'webhook'; url: URL; signingSecret: string } | { kind: 'slack'; url: URL };

export type ResolvedTarget =
  | { ok: true; target: NotifierTarget }
  | { ok: false; reason: 'SecretMissing' | 'URLRefused'; message: string };

/** The namespaced Notifier reading the Secret; absent for a ClusterNotifier. */
export interface SecretReader {
  kind: 'Notifier';
  uid: string;
}

function usableBy(secret: SecretObject, reader: SecretReader | undefined): boolean {
  if (reader === undefined) return true;
  if (secret.metadata?.labels?.[NOTIFIER_SECRET_LABEL] === 'true') return true;
  return (secret.metadata?.ownerReferences ?? []).some(
    (owner) => owner.kind === reader.kind && owner.uid === reader.uid && reader.uid !== '',
  );
}

export function resolveNotifierTarget(input: {
  spec: ClusterNotifierSpec;
  secretNamespace: string;
  reader?: SecretReader | undefined;
  readSecret: (namespace: string, name: string) => SecretObject | undefined;
  guard: TargetGuard;
}): ResolvedTarget {
  const { spec, secretNamespace, reader } = input;
  const ref = spec.webhook?.signingSecretRef ?? spec.slack?.webhookURLSecretRef;
  if (ref === undefined) {
    return { ok: false, reason: 'URLRefused', message: 'neither webhook nor slack is set' };
  }
  const secret = input.readSecret(secretNamespace, ref.name);
  const value =
    secret === undefined || !usableBy(secret, reader)
      ? undefined
      : decodeSecretData(secret)[ref.key];
  if (value === undefined || value.trim() === '') {
    return {
      ok: false,
      reason: 'SecretMissing',
      message:
        reader === undefined
          ? `Secret ${secretNamespace}/${ref.name} has no key ${ref.key}`
          : `Secret ${secretNamespace}/${ref.name} is missing, has no value under ${ref.key}, ` +
            `or is neither labelled ${NOTIFIER_SECRET_LABEL}: "true" nor owned by this Notifier`,
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
