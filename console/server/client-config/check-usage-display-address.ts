/**
 * Whether CC Switch's usage display can read the gateway at this address: it asks over HTTPS, or
 * over plain HTTP only to this machine (localhost, 127.0.0.1, ::1). Pure.
 */
const THIS_MACHINE = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for `http://` to another machine (or an address that does not parse). */
export function usageDisplayNeedsHttps(gatewayUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(gatewayUrl);
  } catch {
    return true;
  }
  if (url.protocol === 'https:') return false;
  return !THIS_MACHINE.has(url.hostname);
}
