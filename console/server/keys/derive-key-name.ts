/**
 * A key's two names: its display name, a free label for people (any script, spaces, up to 200
 * characters), and its object name, the ApiKey's Kubernetes name derived from the label (a
 * readable ASCII slug and a short random suffix). Pure; shared by the console's server and its
 * web app, so the name shown under the form's field is the one created.
 */

/** The display name's longest length, in UTF-16 code units (what the local control plane counts). */
export const DISPLAY_NAME_MAX = 200;
/** An object name a key may have: a lowercase DNS label. */
export const KEY_OBJECT_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
export const KEY_OBJECT_NAME_MAX = 63;
/** How much of the slug is kept before the suffix (50 + "-" + a 5-character suffix < 63). */
const SLUG_MAX = 50;

// Control characters (C0, DEL, C1) and the line and paragraph separators.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Why a display name (as typed) is refused, or undefined. It is trimmed first. */
export function displayNameProblem(text: string): string | undefined {
  const label = text.trim();
  if (label === '') return 'Give the key a name.';
  if (label.length > DISPLAY_NAME_MAX) {
    return `At most ${DISPLAY_NAME_MAX} characters (now ${label.length}).`;
  }
  if (CONTROL.test(label)) return 'No control characters (tabs, line breaks) in the name.';
  return undefined;
}

export const KEY_OBJECT_NAME_RULE = `Use lowercase letters, digits and "-" (at most ${KEY_OBJECT_NAME_MAX}), starting and ending with a letter or digit.`;

/** Why an object name is refused, or undefined. */
export function objectNameProblem(name: string): string | undefined {
  if (name.length <= KEY_OBJECT_NAME_MAX && KEY_OBJECT_NAME.test(name)) return undefined;
  return KEY_OBJECT_NAME_RULE;
}

/** Latin letters that do not decompose into a base letter and a mark. */
const LETTERS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ł: 'l',
  ı: 'i',
};

/**
 * `Équipe données 数据 team` → `equipe-donnees-team-x7k2p`: accents dropped, other scripts left
 * out, runs of anything else one `-`; a label with no Latin letter or digit gives `key-x7k2p`.
 */
export function nameFromDisplayName(displayName: string, suffix: string): string {
  const base = displayName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøđðþłı]/g, (letter) => LETTERS[letter] ?? '-')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
  return base === '' ? `key-${suffix}` : `${base}-${suffix}`;
}
