import { describe, expect, it } from 'vitest';
import { sumStringFieldChars } from './count-json-string-chars.js';

function parsedLength(text: string): number {
  const chunk = JSON.parse(text) as { choices: { delta: { content?: unknown } }[] };
  return chunk.choices.reduce(
    (sum, choice) =>
      sum + (typeof choice.delta.content === 'string' ? choice.delta.content.length : 0),
    0,
  );
}

describe('sumStringFieldChars', () => {
  it.each([
    'hello ',
    '',
    'quote " backslash \\ newline \n tab \t',
    'accents é, emoji 😀, cjk 漢字',
    'a "content":"fake" inside the text',
    '\u0001 control',
  ])('matches JSON.parse for %j', (content) => {
    const text = JSON.stringify({
      id: 'c',
      choices: [
        { index: 0, delta: { content } },
        { index: 1, delta: { content: content + 'x' } },
      ],
    });
    expect(sumStringFieldChars(text, 'content')).toBe(parsedLength(text));
  });

  it('counts escaped non-ASCII as JSON.parse does', () => {
    const text = '{"choices":[{"delta":{"content":"\\u00e9\\ud83d\\ude00"}}]}';
    expect(sumStringFieldChars(text, 'content')).toBe(parsedLength(text));
    expect(sumStringFieldChars(text, 'content')).toBe(3);
  });

  it('ignores other keys ending in the name and non-string values, and refuses cut text', () => {
    expect(sumStringFieldChars('{"reasoning_content":"abc","content":null}', 'content')).toBe(0);
    expect(sumStringFieldChars('{"content":"abc', 'content')).toBeNull();
    expect(sumStringFieldChars('{"content":"ab\\', 'content')).toBeNull();
  });
});
