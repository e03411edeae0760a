import { describe, expect, it } from 'vitest';
import {
  displayNameProblem,
  KEY_OBJECT_NAME,
  nameFromDisplayName,
  objectNameProblem,
} from './derive-key-name.js';
import { createKeySchema, editKeySchema } from './key-schemas.js';

describe('a key object name derived from its display name', () => {
  const table: { label: string; name: string }[] = [
    { label: 'My Key 1!', name: 'my-key-1-x7k2p' },
    { label: 'made in the console', name: 'made-in-the-console-x7k2p' },
    { label: 'Équipe données 数据 team', name: 'equipe-donnees-team-x7k2p' },
    { label: 'Straße Ærø Łódź Œuvre', name: 'strasse-aero-lodz-oeuvre-x7k2p' },
    { label: 'ｆｕｌｌ　ｗｉｄｔｈ', name: 'full-width-x7k2p' },
    { label: '数据团队', name: 'key-x7k2p' },
    { label: 'Команда', name: 'key-x7k2p' },
    { label: '***', name: 'key-x7k2p' },
    { label: '  -- ci --  ', name: 'ci-x7k2p' },
    { label: 'a'.repeat(80), name: `${'a'.repeat(50)}-x7k2p` },
    { label: `${'a'.repeat(49)} b`, name: `${'a'.repeat(49)}-x7k2p` },
  ];
  it.each(table)('$label → $name', ({ label, name }) => {
    expect(nameFromDisplayName(label, 'x7k2p')).toBe(name);
  });

  it('always gives a valid object name, whatever the label', () => {
    const labels = ['🙂 emoji', 'ǅ ǈ ǋ', 'İstanbul', 'x'.repeat(200), '\u0301', 'ﬁ ligature'];
    for (const label of labels) {
      const name = nameFromDisplayName(label, 'abcde');
      expect(name, label).toMatch(KEY_OBJECT_NAME);
      expect(objectNameProblem(name), label).toBeUndefined();
    }
  });
});

describe('display name rules', () => {
  it('takes any script and spaces, up to 200 characters, trimmed', () => {
    expect(displayNameProblem('Équipe données 数据 team')).toBeUndefined();
    expect(displayNameProblem(` ${'字'.repeat(200)} `)).toBeUndefined();
    expect(displayNameProblem('字'.repeat(201))).toBe('At most 200 characters (now 201).');
    expect(displayNameProblem('   ')).toBe('Give the key a name.');
  });

  it('refuses control characters', () => {
    for (const label of ['a\tb', 'a\nb', 'a\u0000b', 'a\u007fb', 'a\u0085b', 'a\u2028b']) {
      expect(displayNameProblem(label), JSON.stringify(label)).toMatch(/control characters/);
    }
  });

  it('the API trims the label and refuses what the form refuses', () => {
    const created = createKeySchema.parse({ displayName: '  Équipe données 数据 team ' });
    expect(created.displayName).toBe('Équipe données 数据 team');
    expect(createKeySchema.safeParse({ displayName: 'x'.repeat(200) }).success).toBe(true);
    const long = createKeySchema.safeParse({ displayName: 'x'.repeat(201) });
    expect(long.error?.issues[0]?.path).toEqual(['displayName']);
    expect(createKeySchema.safeParse({ displayName: 'a\nb' }).success).toBe(false);
    expect(editKeySchema.parse({ displayName: ' new label ' }).displayName).toBe('new label');
    expect(editKeySchema.safeParse({ displayName: ' ' }).success).toBe(false);
    const badName = createKeySchema.safeParse({ displayName: 'ok', name: 'Not A Name' });
    expect(badName.error?.issues[0]?.path).toEqual(['name']);
  });
});
