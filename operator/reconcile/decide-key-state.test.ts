import { describe, expect, it } from 'vitest';
import { decideKeyState, type KeyStateInput } from './decide-key-state.js';

const now = Date.parse('2026-01-01T00:00:00Z');
const usable: KeyStateInput = {
  material: { status: 'Found', hash: 'h', hint: 'sk-tg-…abcd' },
  group: { status: 'Found', name: 'g' },
  hasAccount: true,
  suspended: false,
  expiresAt: null,
  now,
};

describe('decideKeyState', () => {
  it('an everything-resolved key is Active', () => {
    const decision = decideKeyState(usable);
    expect(decision.ready.reason).toBe('Active');
    expect(decision.policyState).toBe('Active');
    expect(decision.resolvedRefs.status).toBe('True');
  });

  it.each([
    [{ suspended: true }, 'Suspended', 'Active'],
    [{ expiresAt: now }, 'Expired', 'Active'],
    [{ expiresAt: now + 1 }, 'Active', 'Active'],
    [{ group: { status: 'None' as const } }, 'NoGroup', 'NoGroup'],
    [{ group: { status: 'NotFound' as const, name: 'g' } }, 'GroupNotFound', 'GroupNotFound'],
    [
      { group: { status: 'NotPermitted' as const, name: 'g', namespace: 'ns' } },
      'GroupNotPermitted',
      'GroupNotPermitted',
    ],
    [{ hasAccount: false }, 'NoAccount', 'Active'],
    [
      { material: { status: 'InvalidKey' as const, message: 'too short', hash: 'h' } },
      'InvalidKey',
      'InvalidKey',
    ],
    [
      { material: { status: 'DuplicateKey' as const, message: 'dup', hash: null } },
      'DuplicateKey',
      'DuplicateKey',
    ],
    [
      { material: { status: 'SecretConflict' as const, message: 'other', hash: null } },
      'SecretConflict',
      'SecretConflict',
    ],
  ])('%j -> Ready reason %s, policy state %s', (change, reason, state) => {
    const decision = decideKeyState({ ...usable, ...change });
    expect(decision.ready.reason).toBe(reason);
    expect(decision.policyState).toBe(state);
  });

  it('orders reasons: key material, then suspend, expiry, group, account', () => {
    const broken = {
      ...usable,
      suspended: true,
      expiresAt: now - 1,
      group: { status: 'None' as const },
      hasAccount: false,
    };
    expect(decideKeyState(broken).ready.reason).toBe('Suspended');
    expect(decideKeyState({ ...broken, suspended: false }).ready.reason).toBe('Expired');
    expect(decideKeyState({ ...broken, suspended: false, expiresAt: null }).ready.reason).toBe(
      'NoGroup',
    );
    expect(
      decideKeyState({
        ...broken,
        material: { status: 'InvalidKey', message: 'x', hash: null },
      }).ready.reason,
    ).toBe('InvalidKey');
  });

  it('gives ResolvedRefs the reason of the missing reference', () => {
    const decision = decideKeyState({ ...usable, hasAccount: false });
    expect(decision.resolvedRefs).toMatchObject({ status: 'False', reason: 'NoAccount' });
  });
});
