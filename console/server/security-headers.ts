/**
 * Headers on every console answer. The web app is one same-origin bundle (scripts and style
 * sheets from /assets, API calls to /api), so the policy allows only this origin and nothing
 * inline; React and the charts set styles through the DOM (CSSOM), which style-src does not
 * govern. The console may not be framed (clickjacking of key creation or deletion), types are
 * not sniffed, and no Referer leaves the console (its paths name accounts and keys).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};
