/**
 * Pure: how a captured body is shown: its text pretty-printed when it is whole JSON (a cut body is
 * shown as stored), and its redactions, size and cut in words.
 */
import type { CapturedBody, Redaction } from '../api/usage-api.js';
import { formatCount } from '../format/format-usage.js';

/** The body's text, indented when it parses as JSON; as stored otherwise. */
export function prettyBodyText(body: CapturedBody): string {
  const json = /json/i.test(body.contentType) || /^\s*[[{]/.test(body.text);
  if (!json || body.truncated) return body.text;
  try {
    return JSON.stringify(JSON.parse(body.text), null, 2);
  } catch {
    return body.text;
  }
}

/** "Redacted: 2 × anthropic-key, 1 × bearer-token", or "Nothing redacted". */
export function redactionSummary(redactions: readonly Redaction[]): string {
  if (redactions.length === 0) return 'Nothing redacted';
  return `Redacted: ${redactions.map((item) => `${formatCount(item.count)} × ${item.kind}`).join(', ')}`;
}

/** "1,234 bytes" or "70,000 bytes, cut to the first 65,536" (the key's maxBytes). */
export function sizeSummary(body: CapturedBody): string {
  const stored = new TextEncoder().encode(body.text).length;
  const whole = `${formatCount(body.bytes)} bytes`;
  return body.truncated ? `${whole}, cut to the first ${formatCount(stored)}` : whole;
}
