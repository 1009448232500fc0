import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newContext, widget } from './support/browser.js';
import { startClinicSite, startE2eStack, type ClinicSite, type E2eStack } from './support/stack.js';

/** The two lines of docs/embedding.md, with the BFF's widget URL. */
const embed = (bff: string) => `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>Clinic</title>
  <script type="module" src="${bff}/widget/clinic-booking.js"></script></head>
  <body><clinic-booking><a href="tel:+442079460958">Call to book</a></clinic-booking></body></html>`;

/**
 * A web developer pastes the two lines into a page on an origin the BFF does not allow: Chromium
 * keeps every /api answer from the page and says only that CORS refused it. The widget must name the
 * origin and the setting in the console, and tell patients nothing they did not see before.
 */
describe('the widget on a page whose origin the BFF refuses', () => {
  let stack: E2eStack;
  let elsewhere: ClinicSite;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    stack = await startE2eStack();
    elsewhere = await startClinicSite();
    browser = await launchBrowser();
    context = await newContext(browser);
    for (const site of [stack.site, elsewhere]) site.pages.set('/book.html', embed(stack.bff.baseUrl));
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await elsewhere?.close();
    await stack?.close();
  });

  /** Opens the page and collects the widget's console errors until the load error shows. */
  async function open(origin: string): Promise<{ page: Page; hints: string[] }> {
    const page = await context.newPage();
    const hints: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && message.text().startsWith('<clinic-booking>')) hints.push(message.text());
    });
    await page.goto(`${origin}/book.html`);
    return { page, hints };
  }

  it('logs one console error naming the origin and ALLOWED_ORIGINS, and shows patients the usual error', async () => {
    const { page, hints } = await open(elsewhere.origin);

    await expect.poll(() => hints, { timeout: 15_000 }).toHaveLength(1);
    expect(hints[0]).toBe(`<clinic-booking>: ${elsewhere.origin} is not in this BFF's ALLOWED_ORIGINS: add it there to use the widget on that page`);
    const error = widget(page).el.locator('[part="load-error"] p');
    await expect.poll(() => error.textContent(), { timeout: 15_000 }).toBe('We could not load the clinic’s information.');
    await page.close();
  });

  it('logs nothing of the kind on a page the BFF allows', async () => {
    const { page, hints } = await open(stack.site.origin);

    await expect.poll(() => widget(page).el.locator('[part="hero"]').count(), { timeout: 15_000 }).toBe(1);
    expect(hints).toEqual([]);
    await page.close();
  });
});
