import { existsSync } from 'node:fs';
import puppeteer, { type ElementHandle, type KeyInput } from 'puppeteer-core';
import { firefoxPath } from '../../../scripts/ensure-firefox.mjs';
import { asExpression, IN_PAGE, type EngineBrowser, type Key } from './engine-driver.js';

/**
 * Debian's Firefox ESR (FIREFOX_PATH), headless, by puppeteer-core over WebDriver BiDi, as
 * scripts/screenshots-other-browsers.ts drives it: Playwright drives only the Firefox it downloads.
 */
export const FIREFOX_PATH = firefoxPath();

export const firefoxInstalled = (): boolean => existsSync(FIREFOX_PATH);

/** puppeteer's key names; its BiDi keyboard knows no "Space", only the character. */
const KEYS: Record<Key, KeyInput> = { Tab: 'Tab', Enter: 'Enter', Space: ' ', ArrowRight: 'ArrowRight' };

/**
 * A fresh browser context per page (1280 x 900), in Europe/London (TZ), the clinic's zone. Clicks are
 * puppeteer's: scrolled into view, then BiDi input.performActions with the pointer at the element's centre.
 */
export async function startFirefox(): Promise<EngineBrowser> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    env: { ...process.env, TZ: 'Europe/London' },
  });
  return {
    async newPage() {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.setViewport({ width: 1280, height: 900 });
      return {
        engine: 'firefox',
        open: async (url) => void (await page.goto(url)),
        run: async <T>(body: string, ...args: unknown[]) => (await page.evaluate(asExpression(body, args))) as T,
        async click(target) {
          const element = (await page.evaluateHandle(asExpression(IN_PAGE.find, [target.css, target.text ?? '']))).asElement() as ElementHandle | null;
          if (!element) throw new Error(`firefox: nothing to click at ${JSON.stringify(target)}`);
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
