/**
 * Upstream availability gauges on the operator's registry (docs/upstream-pools.md):
 * `tollgate_upstream_available{upstream,reason}` is 1 for the current reason and 0 for the others;
 * `tollgate_upstream_cooldown_end_timestamp_seconds{upstream}` is the cool-down or open-circuit end
 * (0 when the upstream is not paused). Series of deleted Upstreams are removed.
 */
import { Gauge, type Registry } from 'prom-client';
import {
  AVAILABILITY_REASONS,
  type AvailabilityReason,
} from './reconcile/project-upstream-availability.js';

export class UpstreamAvailabilityMetrics {
  readonly #available: Gauge<'upstream' | 'reason'>;
  readonly #cooldownEnd: Gauge<'upstream'>;
  readonly #known = new Set<string>();

  constructor(registry: Registry) {
    this.#available = new Gauge({
      name: 'tollgate_upstream_available',
      help: "1 for the upstream's current Available reason (Healthy, CoolingDown, CircuitOpen, CredentialsInvalid), 0 for the others.",
      labelNames: ['upstream', 'reason'],
      registers: [registry],
    });
    this.#cooldownEnd = new Gauge({
      name: 'tollgate_upstream_cooldown_end_timestamp_seconds',
      help: 'When the upstream cool-down or open circuit ends (Unix seconds); 0 when it takes calls.',
      labelNames: ['upstream'],
      registers: [registry],
    });
  }

  observe(upstream: string, reason: AvailabilityReason, cooldownEnd: number | null): void {
    this.#known.add(upstream);
    for (const each of AVAILABILITY_REASONS) {
      this.#available.set({ upstream, reason: each }, each === reason ? 1 : 0);
    }
    this.#cooldownEnd.set({ upstream }, cooldownEnd === null ? 0 : cooldownEnd / 1000);
  }

  /** Drops the series of upstreams not in `present`. */
  retain(present: ReadonlySet<string>): void {
    for (const upstream of this.#known) {
      if (present.has(upstream)) continue;
      this.#known.delete(upstream);
      for (const reason of AVAILABILITY_REASONS) this.#available.remove({ upstream, reason });
      this.#cooldownEnd.remove({ upstream });
    }
  }
}
