/**
 * Token counts in the ledger: the records of token-counting calls (`count_tokens`, `:countTokens`)
 * are free and generate nothing, so they are listed (as kind `token_count`) but are no requests:
 * the rollups and totals leave them out. The gateway flags them (`TOKEN_COUNT_FLAG`); records
 * written before the flag are told by their empty price version (token counting is the one call
 * the gateway prices with no price table: every other record names the table's version).
 */
import { TOKEN_COUNT_FLAG } from '../../store/usage-records.js';

/** True for a token count's row of `usage_records` (or of a relation with its columns). */
export const IS_TOKEN_COUNT_SQL = `('${TOKEN_COUNT_FLAG}' = ANY(flags) OR price_version = '')`;

export type RecordKind = 'request' | 'token_count';
