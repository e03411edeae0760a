/**
 * The trusted-proxy setting shared by the gateway and the console: a comma-separated list of IP
 * addresses or CIDR ranges (`10.0.0.0/8, ::1`), every entry checked at boot.
 */
import { z } from 'zod';
import { parseRange } from './match-source-ranges.js';

export const trustedProxyList = z
  .string()
  .default('')
  .transform((text) =>
    text
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
  )
  .refine((entries) => entries.every((entry) => parseRange(entry) !== null), {
    message: 'every trusted proxy must be an IP address or CIDR range',
  });
