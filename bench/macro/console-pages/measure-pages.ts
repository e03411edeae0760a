/**
 * Times the console's pages in Chromium: each page loaded cold (a full navigation) until its main
 * content is on screen, read as `performance.now()` in the page (milliseconds since the navigation
 * started: HTML, JavaScript, the API calls and the render). The check runs in the page at every
 * animation frame and notes the time itself: waiting with Playwright's locators instead adds their
 * retry pauses (up to half a second) to the figure.
 */
import type { Page } from 'playwright-core';

export interface PageProbe {
  name: string;
  path: string;
  /** JavaScript run in the page at every frame: true once the page's main content is shown. */
  ready: string;
}

/** A check: an element matching `selector` is laid out with a box (width and height). */
export function shown(selector: string): string {
  return `[...document.querySelectorAll(${JSON.stringify(selector)})].some((element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  })`;
}

/** A check: an element matching `selector` whose text is exactly `text` is shown. */
export function shownWithText(selector: string, text: string): string {
  return `[...document.querySelectorAll(${JSON.stringify(selector)})].some((element) => {
    const box = element.getBoundingClientRect();
    return element.textContent === ${JSON.stringify(text)} && box.width > 0 && box.height > 0;
  })`;
}

/** Every check holds. */
export function allOf(...checks: string[]): string {
  return checks.map((check) => `(${check})`).join(' && ');
}

export async function timePage(
  page: Page,
  options: { baseUrl: string; probe: PageProbe },
): Promise<number> {
  await page.goto('about:blank');
  await page.goto(`${options.baseUrl}${options.probe.path}`, { waitUntil: 'commit' });
  // Not `page.waitForFunction`: it evaluates its predicate with `eval` inside the page, which the
  // console's Content Security Policy (`script-src 'self'`) refuses; `page.evaluate` runs the
  // text through the DevTools protocol, outside the page's policy.
  const shownAt = await page.evaluate<number>(`new Promise((resolve, reject) => {
    const frame = () => {
      if (${options.probe.ready}) resolve(performance.now());
      else if (performance.now() > 60000) reject(new Error('the main content was never shown'));
      else requestAnimationFrame(frame);
    };
    frame();
  })`);
  return shownAt;
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
