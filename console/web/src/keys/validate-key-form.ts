/**
 * Pure: the create-key form's fields, their live validation (the same rules as the server), and the
 * request body they make. Empty or 0 limits mean unlimited and are left out.
 */
import type { CreateKeyBody, EditKeyBody, KeyView } from '../api/console-api.js';
import {
  displayNameProblem,
  nameFromDisplayName,
  objectNameProblem,
} from '../../../server/keys/derive-key-name.js';

export type ExpiryMode = 'never' | 'period' | 'date';

export interface KeyForm {
  account: string;
  /** The display name: a free label. */
  name: string;
  /** The object name chosen under "Advanced"; empty: derived from the label (create only). */
  objectName: string;
  /** The random end of a derived object name, drawn once per form. */
  suffix: string;
  groupName: string;
  value: string;
  quotaUSD: string;
  fiveHourUSD: string;
  dailyUSD: string;
  sevenDayUSD: string;
  allow: string;
  deny: string;
  expiryMode: ExpiryMode;
  /** Days, when expiryMode is 'period'. */
  validDays: string;
  /** A datetime-local value, when expiryMode is 'date'. */
  expiresAt: string;
  enabled: boolean;
}

export type FormErrors = Partial<Record<keyof KeyForm, string>>;

/** Five random lowercase letters and digits (the suffix of a derived object name). */
export function randomSuffix(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(crypto.getRandomValues(new Uint8Array(5)), (byte) =>
    alphabet.charAt(byte % alphabet.length),
  ).join('');
}

export const emptyKeyForm = (account: string, suffix = ''): KeyForm => ({
  account,
  name: '',
  objectName: '',
  suffix,
  groupName: '',
  value: '',
  quotaUSD: '',
  fiveHourUSD: '',
  dailyUSD: '',
  sevenDayUSD: '',
  allow: '',
  deny: '',
  expiryMode: 'never',
  validDays: '30',
  expiresAt: '',
  enabled: true,
});

const KEY_VALUE = /^[A-Za-z0-9_-]{16,253}$/;
const MONEY = /^(0|[1-9][0-9]{0,5})(\.[0-9]{1,6})?$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function isIpv6(text: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || !text.includes(':')) return false;
  try {
    new URL(`http://[${text}]/`);
    return true;
  } catch {
    return false;
  }
}

/** One IPv4/IPv6 address or CIDR range (prefix within the family's size). */
export function isAddressOrRange(line: string): boolean {
  const [address = '', prefix, extra] = line.split('/');
  if (extra !== undefined) return false;
  const v4 = IPV4.test(address);
  if (!v4 && !isIpv6(address)) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (v4 ? 32 : 128);
}

export function addressLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function checkAddresses(text: string): string | undefined {
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line !== '' && !isAddressOrRange(line)) {
      return `Line ${index + 1} ("${line}") is not an IP address or CIDR range such as 10.0.0.0/8.`;
    }
  }
  return undefined;
}

function checkMoney(text: string): string | undefined {
  const value = text.trim();
  if (value === '' || MONEY.test(value)) return undefined;
  return 'Enter a USD amount such as 5 or 12.50 (up to 6 decimals), or leave empty for no limit.';
}

export function validateKeyForm(form: KeyForm, now: number): FormErrors {
  const errors: FormErrors = {};
  if (form.account === '') errors.account = 'Choose the account the key belongs to.';
  const nameProblem = displayNameProblem(form.name);
  if (nameProblem !== undefined) errors.name = nameProblem;
  const objectName = form.objectName.trim();
  const objectProblem = objectName === '' ? undefined : objectNameProblem(objectName);
  if (objectProblem !== undefined) errors.objectName = objectProblem;
  if (form.groupName === '')
    errors.groupName = 'Choose a group: it decides the platform and price.';
  if (form.value !== '' && !KEY_VALUE.test(form.value)) {
    errors.value =
      form.value.length < 16
        ? `At least 16 characters (now ${form.value.length}) of letters, digits, "_" and "-".`
        : 'Only letters, digits, "_" and "-" (at most 253 characters).';
  }
  for (const field of ['quotaUSD', 'fiveHourUSD', 'dailyUSD', 'sevenDayUSD'] as const) {
    const problem = checkMoney(form[field]);
    if (problem !== undefined) errors[field] = problem;
  }
  for (const field of ['allow', 'deny'] as const) {
    const problem = checkAddresses(form[field]);
    if (problem !== undefined) errors[field] = problem;
  }
  if (form.expiryMode === 'period' && !/^[1-9]\d{0,4}$/.test(form.validDays.trim())) {
    errors.validDays = 'Enter a whole number of days, such as 30.';
  }
  if (form.expiryMode === 'date') {
    const at = Date.parse(form.expiresAt);
    if (form.expiresAt === '' || Number.isNaN(at)) errors.expiresAt = 'Choose a date and time.';
    else if (at <= now) errors.expiresAt = 'Choose a time in the future.';
  }
  return errors;
}

/** The object name a create makes: the one chosen under "Advanced", else the label's slug. */
export function objectNameOf(form: KeyForm): string {
  const chosen = form.objectName.trim();
  return chosen === '' ? nameFromDisplayName(form.name.trim(), form.suffix) : chosen;
}

export function createKeyBody(form: KeyForm): CreateKeyBody {
  const limits: NonNullable<CreateKeyBody['limits']> = {};
  for (const field of ['quotaUSD', 'fiveHourUSD', 'dailyUSD', 'sevenDayUSD'] as const) {
    const value = form[field].trim();
    if (value !== '' && Number(value) > 0) limits[field] = value;
  }
  const allow = addressLines(form.allow);
  const deny = addressLines(form.deny);
  return {
    name: objectNameOf(form),
    displayName: form.name.trim(),
    groupName: form.groupName,
    ...(form.value === '' ? {} : { value: form.value }),
    ...(Object.keys(limits).length === 0 ? {} : { limits }),
    ...(allow.length + deny.length === 0 ? {} : { sourceRanges: { allow, deny } }),
    ...(form.expiryMode === 'period' ? { validFor: `${form.validDays.trim()}d` } : {}),
    ...(form.expiryMode === 'date'
      ? { expirationTime: new Date(form.expiresAt).toISOString() }
      : {}),
    enabled: form.enabled,
  };
}

/** The form field a server error names (`limits.quotaUSD`, `sourceRanges.allow.2`, `value`). */
export function formFieldOf(field: string | undefined): keyof KeyForm | undefined {
  if (field === undefined) return undefined;
  const [head, second] = field.split('.');
  switch (head) {
    case 'name':
      return 'objectName';
    case 'displayName':
      return 'name';
    case 'groupName':
      return 'groupName';
    case 'value':
      return 'value';
    case 'limits':
      return second === 'quotaUSD' ||
        second === 'fiveHourUSD' ||
        second === 'dailyUSD' ||
        second === 'sevenDayUSD'
        ? second
        : 'quotaUSD';
    case 'sourceRanges':
      return second === 'deny' ? 'deny' : 'allow';
    case 'validFor':
      return 'validDays';
    case 'expirationTime':
      return 'expiresAt';
    case undefined:
    default:
      return undefined;
  }
}

/** `YYYY-MM-DDTHH:mm` in local time, as a datetime-local input holds it. */
function localDateTime(time: string): string {
  const at = new Date(time);
  const two = (value: number) => String(value).padStart(2, '0');
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}T${two(at.getHours())}:${two(at.getMinutes())}`;
}

/** The form filled from a key, for editing. */
export function keyFormOf(key: KeyView): KeyForm {
  return {
    ...emptyKeyForm(key.namespace),
    name: key.displayName,
    objectName: key.name,
    groupName: key.groupName ?? '',
    quotaUSD: key.limits.quotaUSD ?? '',
    fiveHourUSD: key.limits.fiveHourUSD ?? '',
    dailyUSD: key.limits.dailyUSD ?? '',
    sevenDayUSD: key.limits.sevenDayUSD ?? '',
    allow: key.sourceRanges.allow.join('\n'),
    deny: key.sourceRanges.deny.join('\n'),
    expiryMode: key.expirationTime === null ? 'never' : 'date',
    expiresAt: key.expirationTime === null ? '' : localDateTime(key.expirationTime),
    enabled: key.state !== 'disabled',
  };
}

/**
 * The PATCH body of an edit: every editable field, `null` to remove a limit or the expiry, and
 * the generation read (the server refuses the edit if the key's spec changed since; the
 * operator's status writes do not count).
 */
export function editKeyBody(form: KeyForm, generation: number): EditKeyBody {
  const limit = (value: string): string | null =>
    value.trim() === '' || !(Number(value) > 0) ? null : value.trim();
  const expiry =
    form.expiryMode === 'never'
      ? { expirationTime: null }
      : form.expiryMode === 'period'
        ? { validFor: `${form.validDays.trim()}d` }
        : { expirationTime: new Date(form.expiresAt).toISOString() };
  return {
    displayName: form.name.trim(),
    groupName: form.groupName,
    limits: {
      quotaUSD: limit(form.quotaUSD),
      fiveHourUSD: limit(form.fiveHourUSD),
      dailyUSD: limit(form.dailyUSD),
      sevenDayUSD: limit(form.sevenDayUSD),
    },
    sourceRanges: { allow: addressLines(form.allow), deny: addressLines(form.deny) },
    ...expiry,
    enabled: form.enabled,
    generation,
  };
}
