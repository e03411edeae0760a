import { remembered } from '../../network/remember-parses.js';

/** Model allow lists: `*` matches any run of characters, `?` one character; null allows all. */
function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
}

/** Policies repeat the same globs on every request: compile each one once. */
const compiledGlob = remembered(globToRegExp);

export function matchesGlobs(model: string, globs: readonly string[] | null): boolean {
  if (globs === null) return true;
  return globs.some((glob) => compiledGlob(glob).test(model));
}

/** Allowed when both the group's and the key's lists allow it (each null = no restriction). */
export function isModelAllowed(
  model: string,
  lists: { group: readonly string[] | null; key: readonly string[] | null },
): boolean {
  return matchesGlobs(model, lists.group) && matchesGlobs(model, lists.key);
}
