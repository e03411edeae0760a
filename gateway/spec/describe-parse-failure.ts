import type { z } from 'zod';

/** The first zod issue of a refused request body, as `{ ok:false, param, message }`. */
export function describeParseFailure(error: z.ZodError): {
  ok: false;
  param: string | null;
  message: string;
} {
  const issue = error.issues[0];
  const param = issue?.path.map(String).join('.') ?? '';
  return {
    ok: false,
    param: param === '' ? null : param,
    message: `Invalid request: ${issue?.message ?? 'unreadable body'}`,
  };
}
