/** The store a contract suite runs on, as its test file hands it over and as the parts read it. */
import type { Store } from '../../../store/store.js';

/** A store made for the suite, with what only its test file can do to its stored data. */
export interface StoreUnderTest {
  store: Store;
  /**
   * Leaves the namespace's counters as a release before the `present` marker stored them (Redis:
   * the marker field removed; memory: a store file without the flag); returns the store to use
   * from then on.
   */
  dropCountersMarker(namespace: string): Promise<StoreUnderTest>;
}

export interface StoreHolder {
  readonly store: Store;
  dropCountersMarker(namespace: string): Promise<void>;
}
