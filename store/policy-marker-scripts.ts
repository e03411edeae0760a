/**
 * The policy cache's generation marker on Redis (docs/store.md "The policy generation marker"):
 * two strings under one hash tag, `{policies}:reload` (the full program in progress) and
 * `{policies}:generation` (the marker). A flush takes both; the commit writes the marker only if
 * the program it ends is still recorded, so a program that a loss interrupted is never marked done.
 */

/** KEYS: marker, reload. ARGV: generation. Reply: 1 when the marker was written, 0 otherwise. */
export const COMMIT_POLICY_RELOAD_LUA = `
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2])
return 1
`;
