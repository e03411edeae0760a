/**
 * Reads the length of string fields straight from compact JSON text, without parsing it: the
 * stream meter's fast path for events that only carry text (pure).
 */

/**
 * The summed length (UTF-16 units, as `JSON.parse(text)...length` gives them) of every string value
 * written as `"key":"..."` in `text`; null when a value does not end (not compact, or cut JSON).
 * A key inside a string value cannot match: its quotes are escaped there.
 */
export function sumStringFieldChars(text: string, key: string): number | null {
  const needle = `"${key}":"`;
  let chars = 0;
  let at = text.indexOf(needle);
  while (at !== -1) {
    let index = at + needle.length;
    for (;;) {
      if (index >= text.length) return null;
      const code = text.charCodeAt(index);
      if (code === 34) break; // the closing quote
      // An escape is one character: \uXXXX (one UTF-16 unit) or \n, \", \\ and the like.
      index += code === 92 ? (text.charCodeAt(index + 1) === 117 ? 6 : 2) : 1;
      chars += 1;
    }
    at = text.indexOf(needle, index + 1);
  }
  return chars;
}
