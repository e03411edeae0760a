/** Status conditions: merging a desired set into the current one, keeping transition times stable. */
import type { Condition } from '../../crds/schema/resources.js';

export interface DesiredCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

interface MergeOptions {
  current: readonly Condition[] | undefined;
  desired: readonly DesiredCondition[];
  generation: number;
  now: Date;
}

/**
 * The result holds the desired conditions (in their order) followed by any other current ones.
 * `lastTransitionTime` changes only when a condition's status flips.
 */
export function mergeConditions(options: MergeOptions): Condition[] {
  const current = options.current ?? [];
  const byType = new Map(current.map((condition) => [condition.type, condition]));
  const merged: Condition[] = options.desired.map((wanted) => {
    const previous = byType.get(wanted.type);
    const keep = previous !== undefined && previous.status === wanted.status;
    return {
      type: wanted.type,
      status: wanted.status,
      reason: wanted.reason,
      message: wanted.message,
      observedGeneration: options.generation,
      lastTransitionTime: keep ? previous.lastTransitionTime : formatTime(options.now),
    };
  });
  const desiredTypes = new Set(options.desired.map((condition) => condition.type));
  return [...merged, ...current.filter((condition) => !desiredTypes.has(condition.type))];
}

/** RFC 3339 without milliseconds, as Kubernetes writes times. */
export function formatTime(time: Date | number): string {
  const date = typeof time === 'number' ? new Date(time) : time;
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function findCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return conditions?.find((condition) => condition.type === type);
}
