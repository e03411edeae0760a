/**
 * Test support: screenshots of the page as it is now at 1280 and 390 pixels wide, each in the light
 * and the dark theme (`<name>-<width>-<theme>.png`), the window put back to 1280 and light after.
 */
import type { ConsoleBrowser } from '../../support/console-browser.js';

export async function shootWidthsAndThemes(browser: ConsoleBrowser, name: string): Promise<void> {
  const { page } = browser;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 1280 ? 800 : 844 });
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      // Charts follow their container's size on the next frame.
      await page.waitForTimeout(300);
      await browser.shoot(`${name}-${width}-${theme}`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.waitForTimeout(300);
}
