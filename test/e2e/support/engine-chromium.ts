import { existsSync } from 'node:fs';
import { CHROME_PATH, launchBrowser, newContext } from './browser.js';
import { asExpression, IN_PAGE, type EngineBrowser, type Key } from './engine-driver.js';

/** Chromium as the other e2e tests run it: Debian's (CHROME_PATH), by playwright-core. */
export const chromiumInstalled = (): boolean => existsSync(CHROME_PATH);

const KEYS: Record<Key, string> = { Tab: 'Tab', Enter: 'Enter', Space: ' ', ArrowRight: 'ArrowRight' };

/**
 * A fresh browser context per page (Europe/London, 1280 x 900). Clicks are Playwright's: scrolled
 * into view, then mouse events at the element's centre through CDP's Input domain, as a person's.
 */
export async function startChromium(): Promise<EngineBrowser> {
  const browser = await launchBrowser();
  return {
    async newPage() {
      const context = await newContext(browser);
      const page = await context.newPage();
      return {
        engine: 'chromium',
        open: async (url) => void (await page.goto(url)),
        run: (body, ...args) => page.evaluate(asExpression(body, args)),
        async click(target) {
          const element = (await page.evaluateHandle(asExpression(IN_PAGE.find, [target.css, target.text ?? '']))).asElement();
          if (!element) throw new Error(`chromium: nothing to click at ${JSON.stringify(target)}`);
          await element.click();
        },
        type: (text) => page.keyboard.type(text),
        press: (key) => page.keyboard.press(KEYS[key]),
        close: () => context.close(),
      };
    },
    close: () => browser.close(),
  };
}
