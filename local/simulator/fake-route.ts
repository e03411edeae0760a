/** Where the fake provider sends a request: the platform it answers as, and the answer. */
import type { FakeCall } from './fake-call.js';

export type FakeRoutePlatform =
  'anthropic' | 'bedrock' | 'openai' | 'google' | 'antigravity' | 'vertex' | 'oauth';

export interface FakeRoute {
  platform: FakeRoutePlatform;
  answer: (call: FakeCall) => Promise<void>;
}
