/** The console API's key shapes (zod): what a key looks like, and what create and edit accept. */
import { z } from 'zod';
import { clientConfigSchema } from '../client-config/client-config-schema.js';
import {
  displayNameProblem,
  KEY_OBJECT_NAME,
  KEY_OBJECT_NAME_MAX,
  KEY_OBJECT_NAME_RULE,
} from './derive-key-name.js';

export const MONEY = /^(0|[1-9][0-9]{0,5})(\.[0-9]{1,6})?$/;
export const KEY_VALUE = /^[A-Za-z0-9_-]{16,253}$/;

const money = z
  .union([z.string(), z.number()])
  .transform(String)
  .pipe(z.string().regex(MONEY, 'a USD amount such as 5 or 12.50 (up to 6 decimals)'));

/** One address or CIDR per line (a string), or a list. */
const addressList = z
  .union([z.string().max(20_000), z.array(z.string().max(64)).max(500)])
  .transform((value) =>
    (typeof value === 'string' ? value.split(/\r?\n/) : value)
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  )
  .pipe(z.array(z.string().regex(/^[0-9a-fA-F.:/]+$/, 'an IP address or CIDR range')).max(500));

export const limitsSchema = z.strictObject({
  quotaUSD: money.nullish(),
  fiveHourUSD: money.nullish(),
  dailyUSD: money.nullish(),
  sevenDayUSD: money.nullish(),
});

const validity = z.string().regex(/^[1-9][0-9]{0,4}[hd]$/, 'a period such as 12h or 30d');

/** A free label: any text, trimmed, 1 to 200 characters, no control characters. */
const displayName = z
  .string()
  .max(10_000)
  .transform((text) => text.trim())
  .superRefine((text, check) => {
    const problem = displayNameProblem(text);
    if (problem !== undefined) check.addIssue({ code: 'custom', message: problem });
  });

const editable = {
  displayName,
  groupName: z.string().regex(KEY_OBJECT_NAME).max(253).nullish(),
  limits: limitsSchema.optional(),
  sourceRanges: z
    .strictObject({ allow: addressList.optional(), deny: addressList.optional() })
    .optional(),
  /** An RFC 3339 time, or null to remove the expiry. */
  expirationTime: z.iso.datetime({ offset: true }).nullish(),
  /** Instead of expirationTime: valid for this long from now (`12h`, `30d`). */
  validFor: validity.optional(),
  enabled: z.boolean().optional(),
  maxConcurrentRequests: z.number().int().min(0).max(1_000_000).nullish(),
  modelsAllow: z.array(z.string().min(1).max(200)).max(100).nullish(),
};

export const createKeySchema = z
  .strictObject({
    /** The ApiKey's object name; generated from the display name when absent. */
    name: z
      .string()
      .regex(KEY_OBJECT_NAME, KEY_OBJECT_NAME_RULE)
      .max(KEY_OBJECT_NAME_MAX, KEY_OBJECT_NAME_RULE)
      .optional(),
    ...editable,
    /** A chosen value (at least 16 of A-Z a-z 0-9 _ -); generated `sk-tg-…` when absent. */
    value: z.string().regex(KEY_VALUE, 'at least 16 characters of A-Z a-z 0-9 _ -').optional(),
  })
  .refine((body) => body.expirationTime == null || body.validFor === undefined, {
    message: 'give expirationTime or validFor, not both',
    path: ['validFor'],
  });
export type CreateKeyInput = z.output<typeof createKeySchema>;

export const editKeySchema = z
  .strictObject({
    ...editable,
    displayName: editable.displayName.optional(),
    /**
     * The key's `generation` the edit was made from: refused (409) when its spec changed since
     * (the operator's status writes do not count).
     */
    generation: z.number().int().min(1).optional(),
    /** Instead: refused when anything changed since this version was read, status included. */
    resourceVersion: z.string().max(64).optional(),
  })
  .refine((body) => body.expirationTime == null || body.validFor === undefined, {
    message: 'give expirationTime or validFor, not both',
    path: ['validFor'],
  });
export type EditKeyInput = z.output<typeof editKeySchema>;

export const keyViewSchema = z.object({
  name: z.string(),
  namespace: z.string(),
  uid: z.string(),
  resourceVersion: z.string(),
  /** Bumped by spec changes only: what an edit sends back. */
  generation: z.number(),
  displayName: z.string(),
  groupName: z.string().nullable(),
  /** `spec.owner`: whose member budget the key's spend counts toward; null: nobody's. */
  owner: z.string().nullable(),
  state: z.enum(['enabled', 'disabled', 'expired']),
  ready: z.object({
    status: z.string(),
    reason: z.string().nullable(),
    message: z.string().nullable(),
  }),
  keyHint: z.string().nullable(),
  limits: z.object({
    quotaUSD: z.string().nullable(),
    fiveHourUSD: z.string().nullable(),
    dailyUSD: z.string().nullable(),
    sevenDayUSD: z.string().nullable(),
  }),
  sourceRanges: z.object({ allow: z.array(z.string()), deny: z.array(z.string()) }),
  expirationTime: z.string().nullable(),
  maxConcurrentRequests: z.number().nullable(),
  modelsAllow: z.array(z.string()).nullable(),
  usage: z.object({
    usedUSD: z.string().nullable(),
    windows: z.array(
      z.object({ name: z.string(), usedUSD: z.string(), resetTime: z.string().nullable() }),
    ),
    lastUsedTime: z.string().nullable(),
    /** Null when the user may not read usage, or when `ledgerUnavailable`. */
    todayCostUSD: z.string().nullable(),
    /** True when the usage ledger could not be read (none configured, or unreachable). */
    ledgerUnavailable: z.boolean(),
    /**
     * Where `usedUSD`, `windows` and `lastUsedTime` come from: `store`, the live counters the
     * gateway enforces (read with the request); `status`, the ApiKey status as the operator last
     * wrote it (up to a minute old), when the console has no store or cannot reach it.
     */
    countersSource: z.enum(['store', 'status']),
  }),
  createdTime: z.string(),
});
export type KeyView = z.infer<typeof keyViewSchema>;

export const createdKeySchema = z.object({
  key: keyViewSchema,
  /** Shown once: never returned again. */
  value: z.string(),
  /**
   * The client configuration with the value (once, like the value); null without
   * --gateway-url, without a group, or when the user may not read the key's Group.
   */
  clientConfig: clientConfigSchema.nullable(),
});
