/**
 * Which methods a known path takes (pure), so a wrong method is told 405 with `allow` instead of
 * "no such route" or "no such model": generation paths take POST, model lists take GET.
 */
const postPaths = [
  /^\/(antigravity\/)?v1\/messages(\/count_tokens)?$/,
  /^\/(antigravity\/)?v1beta\/models\/[^/:]+:(generateContent|streamGenerateContent|countTokens)$/,
  /^\/v1\/(responses|responses\/compact|chat\/completions)$/,
  /^\/antigravity\/v1\/responses\/compact$/,
];

const getPaths = [
  /^\/(v1|v1beta|antigravity|antigravity\/v1|antigravity\/v1beta)\/models(\/[^/:]+)?$/,
];

/** The `allow` value of a known path, or null for an unknown one. */
export function allowedMethods(url: string): string | null {
  const path = url.split('?')[0] ?? '';
  if (postPaths.some((pattern) => pattern.test(path))) return 'POST';
  if (getPaths.some((pattern) => pattern.test(path))) return 'GET, HEAD';
  return null;
}
