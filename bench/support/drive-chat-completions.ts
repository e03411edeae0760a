/**
 * Chat Completions calls (OpenAI, streamed or not) from the side-by-side layout's load generator
 * against one started target, each load counted in answered calls: the warm-ups and measured
 * loads of the profiling scripts (`trace-gc.ts`, `profile-allocations.ts`,
 * `count-hot-path-syscalls.ts`) and of `measure-workers.ts`.
 */
import type { BenchCredentials, BenchRequestKind } from './describe-bench-requests.js';
import { answeredCalls, driveLoad, type SideBySideLayout } from './start-side-by-side-layout.js';

export type ChatKindName = 'non-streamed' | 'streamed';

/** The kind named on a script's command line; `fallback` when it names neither. */
export function readChatKindName(text: string | undefined, fallback: ChatKindName): ChatKindName {
  return text === 'streamed' || text === 'non-streamed' ? text : fallback;
}

export function chatCompletionsKind(name: ChatKindName): BenchRequestKind {
  return { platform: 'openai', stream: name === 'streamed', chat: true };
}

export interface ChatCompletionsDriver {
  /** `concurrency` callers, each calling again once answered, for `durationMs`: answered calls. */
  closed(concurrency: number, durationMs: number): Promise<number>;
  /** `rate` calls a second whatever the answers, for `durationMs`: answered calls. */
  open(rate: number, durationMs: number): Promise<number>;
}

export function driveChatCompletions(
  layout: Pick<SideBySideLayout, 'loadgen'>,
  target: { url: string; credentials: BenchCredentials },
  kindName: ChatKindName,
): ChatCompletionsDriver {
  const kind = chatCompletionsKind(kindName);
  const drive = async (load: Record<string, unknown>): Promise<number> =>
    answeredCalls(
      await driveLoad(layout.loadgen, {
        url: target.url,
        kind,
        credentials: target.credentials,
        load,
      }),
    );
  return {
    closed: (concurrency, durationMs) => drive({ mode: 'closed', concurrency, durationMs }),
    open: (rate, durationMs) => drive({ mode: 'open', rate, durationMs }),
  };
}
