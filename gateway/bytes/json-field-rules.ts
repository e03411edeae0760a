/**
 * The rule trees of the JSON field reader (`read-json-fields.ts`): which members of a document it
 * follows, which strings it counts, which values it records, and where it gives up to a full parse.
 * Built once per reader kind, at module load; never on the hot path.
 */
import { Buffer } from 'node:buffer';
import { RULE_KINDS, type FieldRule } from './read-json-fields.js';

const { skip: SKIP, object: OBJECT, array: ARRAY, count: COUNT, capture: CAPTURE } = RULE_KINDS;
const { bail: BAIL, bailUnlessNull: BAIL_UNLESS_NULL } = RULE_KINDS;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export type { FieldRule } from './read-json-fields.js';

const rule = (kind: number, slot = -1): FieldRule => ({
  kind,
  slot,
  names: [],
  members: [],
  item: null,
});

/** A member's name must be plain text (no quote, backslash, control or non-ASCII byte), and not empty. */
function plainName(name: string): Buffer {
  const bytes = Buffer.from(name, 'utf8');
  if (
    bytes.length === 0 ||
    bytes.some((byte) => byte < 0x20 || byte > 0x7e || byte === QUOTE || byte === BACKSLASH)
  ) {
    throw new Error(`field rule names must be plain text: ${JSON.stringify(name)}`);
  }
  return bytes;
}

/** Builders of a rule tree. */
export const fieldRules = {
  /**
   * An object: the rules of the members read (the other members are only checked); with a slot, the
   * object's place is recorded there too.
   */
  object: (members: Record<string, FieldRule>, slot = -1): FieldRule => ({
    ...rule(OBJECT, slot),
    names: Object.keys(members).map(plainName),
    members: Object.values(members),
  }),
  /** An array: the rule of every element. */
  array: (item: FieldRule): FieldRule => ({ ...rule(ARRAY), item }),
  /** A string whose length is added to a count slot. */
  count: (slot: number): FieldRule => rule(COUNT, slot),
  /** Any value whose place is recorded in a capture slot (the last one wins). */
  capture: (slot: number): FieldRule => rule(CAPTURE, slot),
  /**
   * Any value captured into the slot, as `capture`; when it is an object, its members are also
   * read by their rules, as `object`'s (a key with escapes then makes the reader give up).
   */
  captureObject: (members: Record<string, FieldRule>, slot: number): FieldRule => ({
    ...rule(CAPTURE, slot),
    names: Object.keys(members).map(plainName),
    members: Object.values(members),
  }),
  /** A field only a full parse can read: the reader gives up. */
  bail: (): FieldRule => rule(BAIL),
  /** Like `bail`, except for the value `null`. */
  bailUnlessNull: (): FieldRule => rule(BAIL_UNLESS_NULL),
  skip: (): FieldRule => rule(SKIP),
};
