import { describe, expect, it, vi } from 'vitest';
import { LeaseRenewer } from './renew-leases.js';

function renewer(): LeaseRenewer {
  return new LeaseRenewer({
    store: {
      renewLease: vi.fn(() => Promise.resolve()),
      acquireUpstreamSlot: vi.fn(() => Promise.resolve(true)),
    },
    leaseMs: 60_000,
    clock: () => 0,
    onError: () => undefined,
  });
}

describe('LeaseRenewer.letGo', () => {
  it("asks the registered request's lease to let go of the request, and renews it still", () => {
    const leases = renewer();
    const letGo = vi.fn();
    leases.add({ namespace: 'ns', keyUid: 'k', requestId: 'r1', letGo });
    leases.letGo('r1');
    expect(letGo).toHaveBeenCalledOnce();
    expect(leases.size).toBe(1);
    leases.stop();
  });

  it('does nothing for a request it does not hold, and keeps a failing one registered', () => {
    const leases = renewer();
    expect(() => {
      leases.letGo('unknown');
    }).not.toThrow();
    leases.add({
      namespace: 'ns',
      keyUid: 'k',
      requestId: 'r2',
      letGo: () => {
        throw new Error('unreadable');
      },
    });
    expect(() => {
      leases.letGo('r2');
    }).not.toThrow();
    expect(leases.size).toBe(1);
    leases.stop();
  });
});
