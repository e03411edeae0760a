/**
 * An edit refused only when the object's spec changed since the form was filled. The form sends the
 * `metadata.generation` it read, which only spec changes bump: the operator's status writes and
 * metadata changes (a quota reset's annotation) bump the resourceVersion but are not conflicting
 * edits. The current object is read; another generation is refused with `409 CONFLICT` in plain
 * words; else the patch (made from the current object) is applied under the current
 * resourceVersion, so a change landing between the read and the write is caught too: the object is
 * read again and the check repeated (a status write passes, a spec change is refused).
 */
import { ConsoleError, isConsoleError } from '../console-error.js';
import type { ObjectRef } from './resource-paths.js';
import type { KubeObject, UserKube } from './user-kube.js';

const ATTEMPTS = 5;

interface Versions {
  metadata?: { resourceVersion?: string; generation?: unknown };
}

export function generationOf(object: KubeObject | Versions): number | undefined {
  const generation = (object as Versions).metadata?.generation;
  return typeof generation === 'number' ? generation : undefined;
}

export async function patchUnlessRespecified<T extends KubeObject | Versions>(
  kube: UserKube,
  ref: ObjectRef,
  options: {
    /** The generation the edit was made from; without it the current spec is edited. */
    generation: number | undefined;
    /** Instead: the exact version read (any write since, a status update too, refuses it). */
    resourceVersion?: string | undefined;
    /** How the refusal names the object: `The key "k1"`. */
    what: string;
    /** The merge patch to apply to the current object. */
    patch: (current: T) => Record<string, unknown>;
  },
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const current = await kube.get<T>(ref);
    const generation = generationOf(current);
    if (options.generation !== undefined && generation !== options.generation) {
      throw new ConsoleError(
        'CONFLICT',
        `${options.what} was changed since this form was opened: reload it, then edit again.`,
      );
    }
    const patch = options.patch(current);
    const metadata = (patch.metadata ?? {}) as Record<string, unknown>;
    try {
      return await kube.mergePatch<T>(ref, {
        ...patch,
        metadata: {
          ...metadata,
          resourceVersion:
            options.resourceVersion ?? (current as Versions).metadata?.resourceVersion,
        },
      });
    } catch (error) {
      // Written in between (the operator's status, most often): read it again and check again.
      const again =
        isConsoleError(error) &&
        error.code === 'CONFLICT' &&
        options.resourceVersion === undefined &&
        attempt < ATTEMPTS;
      if (!again) throw error;
    }
  }
}
