/**
 * The store's live counters as the console reads them: the account's (spent, reserved, in flight)
 * for the dashboard, and every listed key's (quota used, windows, last use) for the keys list and a
 * key's page. These are the counters the gateway enforces and `GET /v1/usage` answers from; the
 * operator copies them into each ApiKey's status at most once a minute (that copy stays for
 * kubectl). Absent (no store configured) or unreachable: undefined, and the caller shows the status.
 */
import { StoreUnavailableError, type KeyCounters, type Store } from '../../../store/store.js';

/** What the console reads from the store. */
export type LiveCountersSource = Pick<Store, 'accountCounters' | 'accountInFlight' | 'keyCounters'>;

/**
 * Runs `read` against the store; undefined without a store or while it is unreachable (any other
 * failure is a bug and is thrown).
 */
export async function readLive<T>(
  store: LiveCountersSource | undefined,
  read: (store: LiveCountersSource) => Promise<T>,
): Promise<T | undefined> {
  if (store === undefined) return undefined;
  try {
    return await read(store);
  } catch (error) {
    if (StoreUnavailableError.is(error)) return undefined;
    throw error;
  }
}

/**
 * The counters of every key in `keyUids` (one namespace), read in one round trip: the calls leave
 * in the same turn of the event loop, so the store's script runner writes them to Redis in one
 * socket write (docs/store.md, "Scripts"); the memory store answers them at once.
 */
export function readKeyCounters(
  store: LiveCountersSource | undefined,
  request: { namespace: string; keyUids: readonly string[]; now: number },
): Promise<Map<string, KeyCounters> | undefined> {
  return readLive(store, async (live) => {
    const entries = await Promise.all(
      request.keyUids.map(
        async (keyUid) =>
          [keyUid, await live.keyCounters(request.namespace, keyUid, request.now)] as const,
      ),
    );
    return new Map(entries);
  });
}
