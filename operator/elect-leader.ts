/**
 * Leader election on a coordination.k8s.io/v1 Lease, the client-go way: the holder renews every
 * `renewIntervalMs`; another candidate takes the Lease once it has seen the same record unchanged
 * for `leaseDurationMs` (its own clock, so clock skew does not matter). Released on clean stop.
 */
import {
  CoordinationV1Api,
  V1Lease,
  V1LeaseSpec,
  V1MicroTime,
  V1ObjectMeta,
  type KubeConfig,
} from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { isStatusCode } from './kubernetes-api.js';

export interface LeaderElectionOptions {
  kubeConfig: KubeConfig;
  namespace: string;
  leaseName: string;
  identity: string;
  leaseDurationMs: number;
  renewIntervalMs: number;
  logger: Logger;
  onStartedLeading: () => void;
  onStoppedLeading: () => void;
}

export class LeaderElector {
  private readonly api: CoordinationV1Api;
  private leading = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private observed: { record: string; at: number } | null = null;
  private lastRenew = 0;
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly options: LeaderElectionOptions) {
    this.api = options.kubeConfig.makeApiClient(CoordinationV1Api);
  }

  isLeader(): boolean {
    return this.leading;
  }

  start(): void {
    this.stopped = false;
    this.tick();
  }

  /** Stops renewing and, when leading, releases the Lease so another candidate takes over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    if (!this.leading) return;
    this.setLeading(false);
    try {
      const lease = await this.read();
      if (lease?.spec?.holderIdentity === this.options.identity) {
        lease.spec.holderIdentity = '';
        lease.spec.leaseDurationSeconds = 1;
        await this.api.replaceNamespacedLease({
          name: this.options.leaseName,
          namespace: this.options.namespace,
          body: lease,
        });
      }
    } catch (error) {
      this.options.logger.warn({ err: error }, 'could not release the leader Lease');
    }
  }

  private tick(): void {
    this.running = this.attempt()
      .catch((error: unknown) => {
        this.options.logger.warn({ err: error }, 'leader election attempt failed');
      })
      .finally(() => {
        if (this.leading && Date.now() - this.lastRenew > this.options.leaseDurationMs) {
          this.setLeading(false);
        }
        if (!this.stopped) {
          this.timer = setTimeout(() => {
            this.tick();
          }, this.options.renewIntervalMs);
          this.timer.unref();
        }
      });
  }

  private async read(): Promise<V1Lease | null> {
    try {
      return await this.api.readNamespacedLease({
        name: this.options.leaseName,
        namespace: this.options.namespace,
      });
    } catch (error) {
      if (isStatusCode(error, 404)) return null;
      throw error;
    }
  }

  private spec(transitions: number): V1LeaseSpec {
    const now = new V1MicroTime(Date.now());
    return Object.assign(new V1LeaseSpec(), {
      holderIdentity: this.options.identity,
      leaseDurationSeconds: Math.max(1, Math.ceil(this.options.leaseDurationMs / 1000)),
      acquireTime: now,
      renewTime: now,
      leaseTransitions: transitions,
    });
  }

  private async attempt(): Promise<void> {
    const { leaseName: name, namespace } = this.options;
    const lease = await this.read();
    if (lease === null) {
      const body = Object.assign(new V1Lease(), {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: Object.assign(new V1ObjectMeta(), { name, namespace }),
        spec: this.spec(0),
      });
      await this.api.createNamespacedLease({ namespace, body });
      this.renewed();
      return;
    }
    const spec = lease.spec ?? new V1LeaseSpec();
    const holder = spec.holderIdentity ?? '';
    const record = JSON.stringify([
      holder,
      String(spec.renewTime ?? ''),
      spec.leaseDurationSeconds,
    ]);
    const now = Date.now();
    if (this.observed?.record !== record) this.observed = { record, at: now };
    const durationMs = (spec.leaseDurationSeconds ?? 0) * 1000;
    const mine = holder === this.options.identity;
    const free = holder === '' || now - this.observed.at > durationMs;
    if (!mine && !free) {
      if (this.leading) this.setLeading(false);
      return;
    }
    const next = this.spec((spec.leaseTransitions ?? 0) + (mine ? 0 : 1));
    if (mine && spec.acquireTime !== undefined) next.acquireTime = spec.acquireTime;
    lease.spec = next;
    try {
      await this.api.replaceNamespacedLease({ name, namespace, body: lease });
    } catch (error) {
      if (isStatusCode(error, 409)) return;
      throw error;
    }
    this.renewed();
  }

  private renewed(): void {
    this.lastRenew = Date.now();
    if (!this.leading) this.setLeading(true);
  }

  private setLeading(leading: boolean): void {
    this.leading = leading;
    this.options.logger.info({ identity: this.options.identity, leading }, 'leadership changed');
    if (leading) this.options.onStartedLeading();
    else this.options.onStoppedLeading();
  }
}
