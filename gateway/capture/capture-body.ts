/**
 * One captured body from the bytes the caller sent or received: decoded as UTF-8, redacted, cut
 * to `maxBytes` on a character boundary (docs/captures.md). Pure. Only a window of the body is
 * decoded and redacted, `maxBytes` plus a margin longer than any secret the rules find, so the
 * work is bounded by the setting, not by the body; a secret that starts before the cut is
 * redacted whole, never left half visible.
 */
import type { CapturedBody } from '../../store/captured-call.js';
import { redactSecrets } from './redact-secrets.js';

/** Read past the cut so a secret that straddles it is still found whole. */
export const REDACTION_MARGIN_BYTES = 8192;

/** The longest prefix of `bytes` of at most `limit` bytes that ends on a character boundary. */
function characterPrefix(bytes: Buffer, limit: number): Buffer {
  if (bytes.length <= limit) return bytes;
  let end = limit;
  // Back up over continuation bytes (10xxxxxx) to the start of the character the limit cuts.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end);
}

export function captureBody(
  body: Buffer,
  options: { maxBytes: number; contentType: string },
): CapturedBody {
  const { maxBytes } = options;
  const window = characterPrefix(body, maxBytes + REDACTION_MARGIN_BYTES);
  const { text: redacted, redactions } = redactSecrets(window.toString('utf8'));
  const redactedBytes = Buffer.from(redacted, 'utf8');
  const kept = characterPrefix(redactedBytes, maxBytes);
  return {
    text: kept === redactedBytes ? redacted : kept.toString('utf8'),
    bytes: body.length,
    truncated: kept.length < redactedBytes.length || window.length < body.length,
    contentType: options.contentType,
    redactions,
  };
}
