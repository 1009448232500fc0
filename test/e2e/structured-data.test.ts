import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Request, Response } from 'playwright-core';
import { launchBrowser, newContext, widget } from './support/browser.js';
import { startE2eStack, type E2eStack } from './support/stack.js';

/** The structured data's part, as the module names it (vite.config.ts). */
const PART = /\/widget\/clinic-booking-seo-[\w-]+\.js$/;
const SCRIPT = 'head > script[type="application/ld+json"][data-clinic-booking]';

/** A clinic's page with the two lines of docs/embedding.md, the tag's attributes as given. */
const embed = (bff: string, attributes: string) => `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>Clinic</title><link rel="icon" href="data:,">
  <script type="module" src="${bff}/widget/clinic-booking.js"></script></head>
  <body><clinic-booking ${attributes}><a href="tel:+442079460958">Call to book</a></clinic-booking></body></html>`;

interface Opened {
  page: Page;
  /** Every request for the part, and the answers that came. */
  requests: Request[];
  answers: Response[];
  /** Console errors, each with the URL it is about, and uncaught errors (an unhandled rejection among them). */
  problems: string[];
}

/**
 * The clinic's schema.org JSON-LD is built by a part of its own (widget/seo/json-ld.ts), fetched only
 * once the content shows: these tests hold that it still comes, that no-structured-data keeps the part
 * from being fetched at all, and that a part that cannot be fetched troubles neither patient nor page.
 */
describe('the structured data, a part fetched once the content shows', () => {
  let stack: E2eStack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startE2eStack();
    browser = await launchBrowser();
    stack.site.pages.set('/book.html', embed(stack.bff.baseUrl, ''));
    stack.site.pages.set('/own-seo.html', embed(stack.bff.baseUrl, 'no-structured-data'));
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  /** Opens a page in a fresh context (a cold cache) and waits for clinic-booking:ready and a quiet network. */
  async function open(path: string, arrange?: (page: Page) => Promise<unknown>): Promise<Opened> {
    const context = await newContext(browser);
    const page = await context.newPage();
    const opened: Opened = { page, requests: [], answers: [], problems: [] };
    page.on('request', (request) => PART.test(request.url()) && opened.requests.push(request));
    page.on('response', (response) => PART.test(response.url()) && opened.answers.push(response));
    page.on('console', (message) => message.type() === 'error' && opened.problems.push(`${message.text()} (${message.location().url})`));
    page.on('pageerror', (error) => opened.problems.push(`uncaught: ${error.message}`));
    await page.addInitScript(() => {
      const globals = globalThis as unknown as { ready: boolean; document: { addEventListener(type: string, listener: () => void): void } };
      globals.ready = false;
      globals.document.addEventListener('clinic-booking:ready', () => (globals.ready = true));
    });
    await arrange?.(page);
    await page.goto(`${stack.site.origin}${path}`);
    await page.waitForFunction(() => (globalThis as unknown as { ready: boolean }).ready);
    await page.waitForLoadState('networkidle');
    return opened;
  }

  it("fetches its part, precompressed and cached for a year, and puts one schema.org Dentist in the page's head", async () => {
    const { page, requests, answers, problems } = await open('/book.html');

    await page.locator(SCRIPT).waitFor({ state: 'attached' });
    const data = JSON.parse((await page.locator(SCRIPT).textContent()) ?? '') as Record<string, unknown>;
    expect(data).toMatchObject({ '@context': 'https://schema.org', '@type': 'Dentist', name: expect.any(String) });
    expect(await page.locator('script[type="application/ld+json"]').count()).toBe(1);
    expect(requests).toHaveLength(1);
    const headers = await answers[0]!.allHeaders();
    expect(answers[0]!.status()).toBe(200);
    expect(headers['content-encoding']).toBe('br');
    expect(headers['cache-control']).toBe('max-age=31536000, immutable');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('fetches no part, and adds nothing, with no-structured-data', async () => {
    const { page, requests, problems } = await open('/own-seo.html');

    expect(requests).toEqual([]);
    expect(await page.locator(SCRIPT).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it.each([
    ['the network fails', 'abort'],
    ['the BFF answers 404 (a page open across a release)', 'fulfil 404'],
  ] as const)('shows the widget as ever and says nothing when the part cannot be fetched: %s', async (_, how) => {
    const { page, requests, problems } = await open('/book.html', (tab) =>
      tab.route(PART, (route) => (how === 'abort' ? route.abort('failed') : route.fulfill({ status: 404, contentType: 'application/json', body: '{}' }))),
    );

    expect(requests).toHaveLength(1);
    const outcome = how === 'abort' ? requests[0]!.failure()?.errorText : (await requests[0]!.response())?.status();
    expect(outcome).toBe(how === 'abort' ? 'net::ERR_FAILED' : 404);
    expect(await page.locator(SCRIPT).count()).toBe(0);
    await expect(widget(page).form.isVisible()).resolves.toBe(true);
    // The browser's own line for the failed request is all the console shows: nothing of the widget's, no uncaught rejection.
    expect(problems).toEqual([expect.stringMatching(/^Failed to load resource: .*\/widget\/clinic-booking-seo-[\w-]+\.js\)$/)]);
    await page.context().close();
  });
});
