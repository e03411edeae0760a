/**
 * What can be read of a request head from raw bytes (pure): the packet Node's parser refused, for
 * guessing the caller's protocol. Partial heads (a cut URL, no blank line) are read as far as
 * they go; bytes that do not start with a request line give null.
 */
export interface RequestHead {
  method: string;
  path: string;
  headers: Record<string, string>;
}

/** Enough to see the path prefix and the usual headers, however large the packet. */
const scannedBytes = 16 * 1024;

export function parseRequestHead(packet: Buffer | undefined): RequestHead | null {
  if (packet === undefined) return null;
  const text = packet.subarray(0, scannedBytes).toString('latin1');
  const lines = text.split('\r\n');
  const requestLine = /^([A-Z]{1,20}) (\/\S*)/.exec(lines[0] ?? '');
  if (requestLine === null) return null;
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    if (line === '') break;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { method: requestLine[1] ?? '', path: requestLine[2] ?? '/', headers };
}
