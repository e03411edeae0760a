/** Polls `condition` until it holds; fails with `what` after `timeoutMs` (tests stop by themselves). */
import { setTimeout as sleep } from 'node:timers/promises';

export async function waitUntil(
  what: string,
  condition: () => Promise<boolean> | boolean,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
