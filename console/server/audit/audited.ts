/** Runs one mutation and records it (success or refusal) in the audit log and as an Event. */
import type { ConsoleContext } from '../console-context.js';
import { isConsoleError } from '../console-error.js';
import type { AuditEntry } from './record-audit.js';

export async function audited<T>(
  context: ConsoleContext,
  entry: Omit<AuditEntry, 'outcome' | 'reason'>,
  work: () => Promise<T>,
): Promise<T> {
  try {
    const result = await work();
    const uid = uidOf(result);
    await context.audit({ ...entry, ...(uid === undefined ? {} : { uid }), outcome: 'Succeeded' });
    return result;
  } catch (error) {
    const reason = isConsoleError(error)
      ? `${error.code}: ${error.message}`
      : error instanceof Error
        ? error.message
        : String(error);
    await context.audit({ ...entry, outcome: 'Failed', reason });
    throw error;
  }
}

function uidOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const direct = (value as { uid?: unknown }).uid;
  if (typeof direct === 'string') return direct;
  const nested = (value as { key?: { uid?: unknown } }).key?.uid;
  return typeof nested === 'string' ? nested : undefined;
}
