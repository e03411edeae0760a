/** What the routes share: configuration, the Kubernetes client, sessions, ledger, audit. */
import type { LedgerQueryable } from '../../ledger/ledger-database.js';
import type { ParsedRange } from '../../network/match-source-ranges.js';
import type { AuditRecorder } from './audit/record-audit.js';
import type { SignInFailureLimiter } from './auth/limit-sign-in-failures.js';
import type { OidcSignIn } from './auth/oidc-sign-in.js';
import type { SessionPolicy } from './auth/guard-request.js';
import type { SessionStore } from './auth/session-store.js';
import type { ConsoleConfig } from './console-config.js';
import type { KubeClient } from './kubernetes/kube-client.js';
import type { LiveCountersSource } from './usage/live-key-counters.js';

export interface ConsoleContext {
  config: ConsoleConfig;
  /** Origins a state-changing call may come from (public origins and allowed ones). */
  permittedOrigins: () => readonly string[];
  /** Proxies whose X-Forwarded-For and X-Forwarded-Proto are believed. */
  trustedProxies: readonly ParsedRange[];
  kube: KubeClient;
  sessions: SessionStore;
  policy: SessionPolicy;
  limiter: SignInFailureLimiter;
  /** The ledger's usage queries; absent: usage endpoints answer 503. */
  ledger: LedgerQueryable | undefined;
  /** The store's live counters (account and keys); absent: the objects' status is shown. */
  store: LiveCountersSource | undefined;
  audit: AuditRecorder;
  oidc: OidcSignIn | undefined;
  now: () => number;
}
