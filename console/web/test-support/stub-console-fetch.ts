/**
 * Test support for the component tests: the browser's `fetch` answered from a table of console API
 * answers by method and path (no server), with every call kept so tests can check what the page
 * asked for. Paths are matched without their query string; an unknown path answers 404, and an
 * answer may be a `StubStatus` for another status.
 */
import { vi } from 'vitest';

export interface StubCall {
  method: string;
  url: URL;
}

export type StubAnswer = (url: URL) => unknown;

/** An answer with another status than 200 (a refusal, a 404 the page expects). */
export class StubStatus {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

export function stubConsoleFetch(routes: Record<string, StubAnswer>): StubCall[] {
  const calls: StubCall[] = [];
  vi.stubGlobal('fetch', (input: string, init?: { method?: string }) => {
    const url = new URL(input, 'http://console.test');
    const method = init?.method ?? 'GET';
    calls.push({ method, url });
    const path = url.pathname.replace(/^\/api\/v1/, '');
    const answer = routes[`${method} ${path}`];
    const answered =
      answer === undefined
        ? new StubStatus(404, {
            error: { code: 'NOT_FOUND', message: `no stub for ${method} ${path}` },
          })
        : answer(url);
    const status = answered instanceof StubStatus ? answered.status : 200;
    const body = answered instanceof StubStatus ? answered.body : answered;
    return Promise.resolve(
      new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      }),
    );
  });
  return calls;
}
