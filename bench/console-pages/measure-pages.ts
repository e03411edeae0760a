/**
 * Times the console's pages in Chromium: each page loaded cold (a full navigation) until its main
 * content is on screen, read as `performance.now()` in the page (milliseconds since the navigation
 * started: HTML, JavaScript, the API calls and the render).
 */
import type { Page } from 'playwright-core';

export interface PageProbe {
  name: string;
  path: string;
  /** Resolves when the page's main content is rendered. */
  ready(page: Page): Promise<void>;
}

export async function timePage(
  page: Page,
  options: { baseUrl: string; probe: PageProbe },
): Promise<number> {
  await page.goto('about:blank');
  await page.goto(`${options.baseUrl}${options.probe.path}`, { waitUntil: 'commit' });
  await options.probe.ready(page);
  return page.evaluate(() => performance.now());
}

/** The page's requests so far: path, start and end (ms since the navigation started). */
export async function resourceTimings(
  page: Page,
): Promise<{ name: string; start: number; end: number }[]> {
  return page.evaluate(() =>
    performance.getEntriesByType('resource').map((entry) => {
      const url = new URL(entry.name);
      return {
        name: `${url.pathname}${url.search}`.slice(0, 90),
        start: Math.round(entry.startTime),
        end: Math.round((entry as unknown as { responseEnd: number }).responseEnd),
      };
    }),
  );
}

/** Server time of one API call (median of `runs`), with the session cookie. */
export async function timeApi(
  url: string,
  options: { cookie: string; runs: number },
): Promise<{ medianMs: number; bytes: number; status: number }> {
  const times: number[] = [];
  let bytes = 0;
  let status = 0;
  for (let run = 0; run < options.runs; run++) {
    const started = performance.now();
    const response = await fetch(url, { headers: { cookie: options.cookie } });
    const body = await response.arrayBuffer();
    times.push(performance.now() - started);
    bytes = body.byteLength;
    status = response.status;
  }
  times.sort((a, b) => a - b);
  return { medianMs: times[Math.floor(times.length / 2)] ?? 0, bytes, status };
}
