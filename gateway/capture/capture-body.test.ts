/** Cutting a captured body: after redaction, on a character boundary, flagged, secrets near the cut. */
import { describe, expect, it } from 'vitest';
import { captureBody, REDACTION_MARGIN_BYTES } from './capture-body.js';

const KEY = 'sk-ant-api03-Xr7Lm2Qp9Vt4Kw8Nz3Bc6Hd1Jf5Gs0Ay-Tu';
const options = { maxBytes: 1024, contentType: 'application/json' };

describe('captureBody', () => {
  it('keeps a small body whole, redacted', () => {
    const body = Buffer.from(JSON.stringify({ prompt: `use ${KEY}` }));
    expect(captureBody(body, options)).toEqual({
      text: '{"prompt":"use [REDACTED:anthropic-key]"}',
      bytes: body.length,
      truncated: false,
      contentType: 'application/json',
      redactions: [{ kind: 'anthropic-key', count: 1 }],
    });
  });

  it('redacts a secret that straddles the cut whole, before cutting', () => {
    // The key starts 10 bytes before the cut: no prefix of it may remain.
    const body = Buffer.from(`${'a'.repeat(1014)}${KEY}${'b'.repeat(100)}`);
    const captured = captureBody(body, options);
    expect(captured.truncated).toBe(true);
    expect(captured.bytes).toBe(body.length);
    expect(captured.text).not.toContain('sk-ant');
    expect(captured.text.startsWith(`${'a'.repeat(1014)}[REDACTED`)).toBe(true);
    expect(Buffer.byteLength(captured.text)).toBe(1024);
    expect(captured.redactions).toEqual([{ kind: 'anthropic-key', count: 1 }]);
  });

  it('cuts on a character boundary', () => {
    const body = Buffer.from('é'.repeat(600)); // 1200 bytes, two per character
    const captured = captureBody(body, { ...options, maxBytes: 1023 });
    expect(captured.text).toBe('é'.repeat(511));
    expect(captured.truncated).toBe(true);
  });

  it('reads only up to the margin past the cut, and still flags the body as cut', () => {
    const far = Buffer.from(`${'x'.repeat(1024 + REDACTION_MARGIN_BYTES + 10)} ${KEY}`);
    const captured = captureBody(far, options);
    expect(captured.redactions).toEqual([]);
    expect(captured.truncated).toBe(true);
    expect(captured.text).toBe('x'.repeat(1024));
  });
});
