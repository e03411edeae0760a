import { describe, expect, it } from 'vitest';
import { guardTargetUrl } from './guard-target-url.js';

const strict = { allowLoopback: false };
const loose = { allowLoopback: true };

describe('guardTargetUrl', () => {
  it.each([
    'https://hooks.example.com/tollgate',
    'http://receiver.team-a.svc.cluster.local:8080/events',
    'https://10.0.0.5/hook',
  ])('allows %s', (url) => {
    expect(guardTargetUrl(url, strict).ok).toBe(true);
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[::ffff:169.254.169.254]/', 'link-local'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'metadata'],
    ['http://0.0.0.0:80/', 'unspecified'],
    ['ftp://example.com/', 'http and https'],
    ['file:///etc/passwd', 'http and https'],
    ['https://user:pass@example.com/', 'credentials'],
    ['not a url', 'not a URL'],
  ])('refuses %s', (url, reason) => {
    const result = guardTargetUrl(url, loose);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.reason).toContain(reason);
  });

  it('allows loopback only when told to', () => {
    for (const url of ['http://127.0.0.1:9000/', 'http://localhost:9000/', 'http://[::1]:9000/']) {
      expect(guardTargetUrl(url, strict).ok).toBe(false);
      expect(guardTargetUrl(url, loose).ok).toBe(true);
    }
  });
});
