import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { RESERVATION_CSS } from '../../bff/demo/demo-page.js';
import { launchBrowser, newContext } from './support/browser.js';
import { startE2eStack, type E2eStack } from './support/stack.js';

/** A page never keeps a gap: within 10 s of a script that cannot load, the fallback is back to its own size. */
const GIVE_UP_MS = 10_000;

const FALLBACK = '<p class="fallback">Book by phone: <a href="tel:+442079460958">020 7946 0958</a></p>';

/**
 * A clinic page with the reservation rule of docs/embedding.md (as the demo
 * page uses it), whose widget script does not load (the BFF is down). A
 * twin <div> holds the same fallback with the same display, so its height is
 * the fallback's own.
 */
const page = (scriptUrl: string) => `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>Down</title>
  <style>body { margin: 0; } .fallback { margin: 1rem; padding: 2rem; } #twin { display: flow-root; }
  ${RESERVATION_CSS}</style>
  <script type="module" src="${scriptUrl}"></script></head>
  <body><clinic-booking>${FALLBACK}</clinic-booking><div id="twin">${FALLBACK}</div><footer>Clinic footer</footer></body></html>`;

describe('a page whose widget script cannot load', () => {
  let stack: E2eStack;
  let browser: Browser;
  let context: BrowserContext;
  let tab: Page;

  beforeAll(async () => {
    stack = await startE2eStack();
    browser = await launchBrowser();
    // A BFF that is down: nothing listens on its port (9, discard, is closed on the test machines).
    stack.site.pages.set('/down.html', page('http://127.0.0.1:9/widget/clinic-booking.js'));
    context = await newContext(browser, { viewport: { width: 390, height: 800 } });
    tab = await context.newPage();
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await stack?.close();
  });

  const heightOf = (selector: string) => tab.locator(selector).evaluate((element: { getBoundingClientRect(): { height: number } }) => element.getBoundingClientRect().height);

  it('reserves a screen while the script may still come, then leaves no gap: the fallback at its own size', async () => {
    const failed = tab.waitForEvent('requestfailed', (request) => request.url().includes('/widget/clinic-booking.js'));
    await tab.goto(`${stack.site.origin}/down.html`);
    expect((await failed).failure()).not.toBeNull();
    // While the script might still arrive, the rule holds a screen's height.
    expect(await heightOf('clinic-booking')).toBe(800);

    // The rule gives up by an animation: its delay is the promise, and the page's clock is moved to its end rather
    // than waited for.
    const reservations = await tab.locator('clinic-booking').evaluate((element: { getAnimations(): { animationName?: string; effect: { getTiming(): { delay?: number } } | null; finish(): void }[] }) =>
      element.getAnimations().map((animation) => {
        const timing = { name: animation.animationName, delay: Number(animation.effect?.getTiming().delay) };
        animation.finish();
        return timing;
      }),
    );
    expect(reservations).toHaveLength(1);
    expect(reservations[0]!.name).toBe('clinic-booking-reserve');
    expect(reservations[0]!.delay).toBeLessThanOrEqual(GIVE_UP_MS);

    expect(await tab.evaluate(() => (globalThis as unknown as { customElements: { get(name: string): unknown } }).customElements.get('clinic-booking'))).toBeUndefined();
    const twin = await heightOf('#twin');
    expect(twin).toBeGreaterThan(50);
    expect(await heightOf('clinic-booking')).toBe(twin);
  });
});
