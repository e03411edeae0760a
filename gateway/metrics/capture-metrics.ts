/**
 * Captured bodies (docs/captures.md), on the gateway's registry: captures handed to the store,
 * hand-offs that failed (the call and its usage record are unaffected), and older captures the
 * store's bounded queue dropped to take new ones. No labels: nothing about a key or a body.
 */
import { Counter, type Registry } from 'prom-client';

export interface CaptureMetrics {
  handedOff: Counter;
  failures: Counter;
  dropped: Counter;
}

export function createCaptureMetrics(registry: Registry): CaptureMetrics {
  return {
    handedOff: new Counter({
      name: 'tollgate_captures_handed_off_total',
      help: 'Captured calls handed to the store for the ledger.',
      registers: [registry],
    }),
    failures: new Counter({
      name: 'tollgate_capture_failures_total',
      help: 'Captured calls lost because building or handing them off failed (the call is unaffected).',
      registers: [registry],
    }),
    dropped: new Counter({
      name: 'tollgate_captures_dropped_total',
      help: "Older captures the store's bounded hand-off queue dropped to take new ones.",
      registers: [registry],
    }),
  };
}
