/**
 * A seeded, deterministic fuzzer of request bodies: from a valid body of a route it derives
 * bodies a careless or hostile client could send (fields of the wrong type, huge or negative
 * numbers, deep nesting, truncated or byte-flipped JSON, invalid UTF-8, other media types). The
 * same seed gives the same bodies, so a failure names a case that can be sent again.
 */

export interface FuzzedBody {
  /** Which mutation made it, for the failure message. */
  name: string;
  body: Buffer;
  contentType: string | null;
}

/** mulberry32: small, fast and good enough to pick mutations; not for anything secret. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** An own field even for `__proto__`, so that it is sent. */
function put(object: Record<string, Json>, key: string, value: Json): void {
  Object.defineProperty(object, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T;

const STRINGS = [
  '',
  ' ',
  '\u0000',
  '\ud800',
  '😀'.repeat(200),
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00%ff',
  'x'.repeat(70_000),
  'claude-sonnet-4-6',
  'gpt-5',
  'gemini-2.5-flash',
  'user',
  'assistant',
  'system',
  '{"nested":"json"}',
];

const NUMBERS = [0, -1, 1, 1.5, -0.5, 2 ** 31, 2 ** 53 + 1, 1e308, -1e308, 4000, 1_000_001];

function randomValue(random: Random, depth = 0): Json {
  const kind = Math.floor(random() * (depth > 3 ? 4 : 7));
  switch (kind) {
    case 0:
      return null;
    case 1:
      return random() < 0.5;
    case 2:
      return pick(random, NUMBERS);
    case 3:
      return pick(random, STRINGS);
    case 4:
      return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
    default: {
      const object: Record<string, Json> = {};
      for (let index = Math.floor(random() * 4); index > 0; index--) {
        put(object, pick(random, FIELD_NAMES), randomValue(random, depth + 1));
      }
      return object;
    }
  }
}

const FIELD_NAMES = [
  'model',
  'max_tokens',
  'max_output_tokens',
  'max_completion_tokens',
  'stream',
  'messages',
  'input',
  'contents',
  'parts',
  'text',
  'role',
  'content',
  'type',
  'generationConfig',
  'maxOutputTokens',
  'candidateCount',
  'n',
  'tools',
  'system',
  'stream_options',
  '__proto__',
  'constructor',
];

/** The paths to the values inside `value` (lists of keys and indexes), down to 8 levels. */
function paths(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const found: (string | number)[][] = prefix.length === 0 ? [] : [prefix];
  if (prefix.length >= 8) return found;
  if (Array.isArray(value)) {
    value.forEach((item, index) => found.push(...paths(item, [...prefix, index])));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) found.push(...paths(item, [...prefix, key]));
  }
  return found;
}

function setAt(root: Json, path: (string | number)[], value: Json | undefined): void {
  let node = root as Record<string | number, Json>;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, Json>;
  const last = path[path.length - 1] as string | number;
  if (value === undefined) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else Reflect.deleteProperty(node, last);
  } else {
    node[last] = value;
  }
}

function mutateStructure(random: Random, valid: Json): { name: string; value: Json } {
  const value = structuredClone(valid);
  const names: string[] = [];
  for (let rounds = 1 + Math.floor(random() * 3); rounds > 0; rounds--) {
    const all = paths(value);
    const path = pick(random, all);
    const label = path.join('.');
    const choice = random();
    if (choice < 0.45) {
      const replacement = randomValue(random);
      setAt(value, path, replacement);
      names.push(`${label}=${JSON.stringify(replacement).slice(0, 40)}`);
    } else if (choice < 0.65) {
      setAt(value, path, undefined);
      names.push(`-${label}`);
    } else if (choice < 0.85 && value !== null && typeof value === 'object') {
      const field = pick(random, FIELD_NAMES);
      put(value as Record<string, Json>, field, randomValue(random));
      names.push(`+${field}`);
    } else {
      setAt(value, path, nested(Math.floor(random() * 3000)));
      names.push(`${label}=deep`);
    }
  }
  return { name: names.join(' '), value };
}

function nested(depth: number): Json {
  let value: Json = 'bottom';
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

function mutateBytes(random: Random, text: string): { name: string; body: Buffer } {
  const bytes = Buffer.from(text);
  const choice = random();
  if (choice < 0.3) {
    const cut = Math.floor(random() * bytes.length);
    return { name: `truncated at ${cut}`, body: bytes.subarray(0, cut) };
  }
  if (choice < 0.55) {
    const flipped = Buffer.from(bytes);
    for (let flips = 1 + Math.floor(random() * 4); flips > 0; flips--) {
      flipped[Math.floor(random() * flipped.length)] = Math.floor(random() * 256);
    }
    return { name: 'bytes flipped', body: flipped };
  }
  if (choice < 0.7) {
    const at = Math.floor(random() * bytes.length);
    const invalid = Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80]);
    return {
      name: `invalid UTF-8 at ${at}`,
      body: Buffer.concat([bytes.subarray(0, at), invalid, bytes.subarray(at)]),
    };
  }
  if (choice < 0.8) {
    return { name: 'BOM first', body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]) };
  }
  if (choice < 0.9) {
    const depth = 5_000 + Math.floor(random() * 100_000);
    return { name: `${depth} open brackets`, body: Buffer.from('['.repeat(depth)) };
  }
  return {
    name: 'not JSON',
    body: Buffer.from(pick(random, ['', 'null', '[]', '"text"', '42', 'model=x', '{"a":1}{'])),
  };
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  null,
];

/** `count` bodies derived from `valid`, the same for the same seed. */
export function fuzzBodies(options: { seed: number; count: number; valid: object }): FuzzedBody[] {
  const random = seededRandom(options.seed);
  const valid = options.valid as Json;
  const bodies: FuzzedBody[] = [];
  for (let index = 0; index < options.count; index++) {
    const choice = random();
    if (choice < 0.6) {
      const mutated = mutateStructure(random, valid);
      bodies.push({
        name: mutated.name,
        body: Buffer.from(JSON.stringify(mutated.value)),
        contentType: 'application/json',
      });
    } else if (choice < 0.9) {
      const mutated = mutateBytes(random, JSON.stringify(valid));
      bodies.push({ ...mutated, contentType: 'application/json' });
    } else {
      const contentType = pick(random, CONTENT_TYPES);
      bodies.push({
        name: `content-type ${contentType ?? 'none'}`,
        body: Buffer.from(JSON.stringify(valid)),
        contentType,
      });
    }
  }
  return bodies;
}
