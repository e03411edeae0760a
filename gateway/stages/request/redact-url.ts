/** URLs as they may be logged: the `key` query parameter (a Gemini API key) is replaced. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]key=)[^&]*/gi, '$1[redacted]');
}
