/**
 * The capture hand-off on Redis (docs/store.md "Captured bodies"): one stream, `{captures}:stream`,
 * each entry the capture's JSON in the field `capture`, trimmed to its bound in the same script
 * call so the queue never grows past it and the drops are counted.
 */

/**
 * KEYS: stream. ARGV: field, capture JSON, bound. Appends the entry, trims the stream to about
 * the bound (whole stream nodes: `MAXLEN ~`) and returns how many entries the trim removed.
 */
export const HAND_OFF_CAPTURE_LUA = `
redis.call('XADD', KEYS[1], '*', ARGV[1], ARGV[2])
return redis.call('XTRIM', KEYS[1], 'MAXLEN', '~', tonumber(ARGV[3]))
`;
