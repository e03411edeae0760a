/**
 * Redacts secrets from a captured body before it leaves the process (docs/captures.md
 * "Redaction"): each match is replaced by `[REDACTED:<kind>]` and counted per kind. Pure. It works
 * on the text as the caller sent or received it, JSON included: a secret inside a JSON string is
 * replaced inside that string (the marker needs no escaping), so valid JSON stays valid, and the
 * rules read escaped quotes and `\n` escapes as the separators they stand for.
 *
 * The rules run in order, most specific first: a key whose shape names its provider is counted as
 * that provider's, not as an assignment's value. Run before cutting to the size limit, so a cut
 * never leaves part of a secret behind.
 */
import type { Redaction } from '../../store/captured-call.js';

interface Rule {
  kind: string;
  pattern: RegExp;
  /** The replacement for one match, from its capture groups (default: the marker alone). */
  replace?: (marker: string, groups: readonly string[]) => string;
}

/** Characters of a key value: letters, digits, `_` and `-`. */
const KEY_CHARS = '[A-Za-z0-9_-]';
/** Not preceded by a key character (a key starts here, not inside a longer word). */
const START = '(?<![A-Za-z0-9_-])';

/**
 * A name that marks a secret: a part `KEY`, `SECRET`, `TOKEN`, `PASSWORD` or `PASSWD`, or a part
 * ending so (`apikey`, `accessToken`), or a whole part `PASS` or `PWD` (`DB_PASS`, `mysql_pwd`,
 * not `bypass`), in any case; not their plurals (`max_tokens` counts tokens, it holds none).
 */
const SECRET_NAME =
  '([A-Za-z0-9_.-]*?(?:key|secret|token|password|passwd)(?:[_.-][A-Za-z0-9_.-]*)?|(?:[A-Za-z0-9_.-]*[_.-])?(?:pass|pwd)(?:[_.-][A-Za-z0-9_.-]*)?)';

/** An `Authorization` header or member up to its value: `Authorization: `, `"authorization": "`. */
const AUTHORIZATION = `Authorization\\\\?["']?[ \\t]*[:=][ \\t]*\\\\?["']?`;

/**
 * A bearer token is redacted whatever its length in an `Authorization` header; elsewhere (prose
 * such as "the bearer of bad news" is no secret) when it is 8 characters or more or holds a digit
 * or a token symbol.
 */
function isBearerToken(header: string, token: string): boolean {
  return header !== '' || token.length >= 8 || /[0-9._~+/=-]/.test(token);
}

/**
 * A quoted value is always redacted. A JSON member's bare value is not (a number, a boolean or
 * null: no secret, and a marker there would break the JSON). After a colon and one of the plain
 * words `key`, `token`, `secret`, a bare word counts only when it contains a digit or is long:
 * prose such as "Key: the idea" is not an assignment, `password: hunter` and `api_key: abc` are.
 */
function isAssignedWord(name: string, separator: string, value: string): boolean {
  if (/^["'\\]/.test(value)) return true;
  if (separator.includes('"')) return false;
  if (!separator.includes(':') || !/^(?:key|token|secret|pass|pwd)$/i.test(name)) return true;
  return /[0-9]/.test(value) || value.length >= 12;
}

/** The value of an assignment: quoted (to its closing quote, escaped or not) or one bare word. */
const ASSIGNED_VALUE =
  '(\\\\"(?:(?!\\\\")[^"\\n])+\\\\"|"(?:[^"\\\\\\n]|\\\\.)+"|\'[^\'\\n]+\'|(?!\\\\")[^\\s"\'\\\\,;}\\]]+)';

const RULES: readonly Rule[] = [
  {
    kind: 'private-key',
    // The whole block, across real or escaped line breaks; one with no end runs to the string's end.
    pattern:
      /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY( BLOCK)?-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|(?:[^"\\]|\\.)*)/g,
  },
  // Prefixes specific enough to match anywhere, glued to a word too.
  { kind: 'tollgate-key', pattern: new RegExp(`sk-tg-${KEY_CHARS}{16,}`, 'g') },
  { kind: 'anthropic-key', pattern: new RegExp(`sk-ant-${KEY_CHARS}{16,}`, 'g') },
  {
    kind: 'openai-key',
    // `sk-` alone is common inside words ("risk-assessment-..."): only where a word starts.
    pattern: new RegExp(`${START}sk-(?:proj-|svcacct-|admin-)?${KEY_CHARS}{20,}`, 'g'),
  },
  { kind: 'google-api-key', pattern: new RegExp(`AIza${KEY_CHARS}{35}`, 'g') },
  // `xai-` and `gsk_` also end words ("max-", "desk_"): only where a word starts.
  { kind: 'xai-key', pattern: new RegExp(`${START}xai-${KEY_CHARS}{32,}`, 'g') },
  { kind: 'groq-key', pattern: new RegExp(`${START}gsk_[A-Za-z0-9]{32,}`, 'g') },
  {
    kind: 'github-token',
    pattern: new RegExp(`(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_\\w{22,})`, 'g'),
  },
  { kind: 'slack-token', pattern: new RegExp(`xox[abposr]-[A-Za-z0-9-]{10,}`, 'g') },
  { kind: 'aws-access-key', pattern: /(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])/g },
  {
    kind: 'aws-secret-key',
    pattern: /(aws_secret_access_key\\?["']?\s*[=:]\s*\\?["']?)[A-Za-z0-9/+=]{40}/gi,
    replace: (marker, [prefix = '']) => `${prefix}${marker}`,
  },
  {
    kind: 'bearer-token',
    pattern: new RegExp(`\\b((${AUTHORIZATION})?Bearer\\s+)([A-Za-z0-9._~+/=-]+)`, 'gi'),
    replace: (marker, [prefix = '', header = '', token = '']) =>
      isBearerToken(header, token) ? `${prefix}${marker}` : `${prefix}${token}`,
  },
  {
    kind: 'basic-auth',
    // Credentials in base64; only in a header ("basic" alone is a plain word).
    pattern: new RegExp(`\\b(${AUTHORIZATION}Basic[ \\t]+)[A-Za-z0-9+/=]+`, 'gi'),
    replace: (marker, [prefix = '']) => `${prefix}${marker}`,
  },
  {
    kind: 'env-assignment',
    // NAME=value, NAME: value, export NAME=value, "name": "value" (also escaped inside JSON text).
    pattern: new RegExp(
      `(?<![A-Za-z0-9_.-])${SECRET_NAME}(?![A-Za-z0-9])(\\\\?["']?[ \\t]*[=:][ \\t]*)${ASSIGNED_VALUE}`,
      'gi',
    ),
    replace: (marker, [name = '', separator = '', value = '']) => {
      if (value.includes('[REDACTED:') || !isAssignedWord(name, separator, value)) {
        return `${name}${separator}${value}`;
      }
      // A quoted value keeps its quotes (JSON stays JSON).
      const quote = /^(\\"|"|')/.exec(value)?.[1] ?? '';
      return `${name}${separator}${quote}${marker}${quote}`;
    },
  },
];

export interface RedactedText {
  text: string;
  redactions: Redaction[];
}

export function redactSecrets(input: string): RedactedText {
  let text = input;
  const redactions: Redaction[] = [];
  for (const rule of RULES) {
    let count = 0;
    const marker = `[REDACTED:${rule.kind}]`;
    text = text.replace(rule.pattern, (match: string, ...rest: unknown[]) => {
      const groups = rest.slice(0, -2).map((group) => (typeof group === 'string' ? group : ''));
      const replaced = rule.replace === undefined ? marker : rule.replace(marker, groups);
      if (replaced !== match) count += 1;
      return replaced;
    });
    if (count > 0) redactions.push({ kind: rule.kind, count });
  }
  return { text, redactions };
}
