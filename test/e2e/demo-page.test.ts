import { join } from 'node:path';
import { statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ensureScreenshotDir, launchBrowser, newContext, openDemo, widget } from './support/browser.js';
import type { ImageElement, PageGlobals } from './support/dom.js';
import { bookingSteps } from './support/booking-steps.js';
import { startE2eStack, weekdayAhead, type E2eStack } from './support/stack.js';

const texts = async (page: Page, selector: string) =>
  (await widget(page).el.locator(selector).allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());

describe('the demo page', () => {
  let stack: E2eStack;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    stack = await startE2eStack();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await stack?.close();
  });

  async function freshPage(viewport = { width: 1280, height: 900 }): Promise<Page> {
    const context = await newContext(browser, { viewport });
    contexts.push(context);
    return context.newPage();
  }

  it('shows every section of the widget with the seeded demo clinic content', async () => {
    const page = await freshPage();
    await openDemo(page, `${stack.bff.baseUrl}/`);
    const el = widget(page).el;

    expect(await texts(page, '[part="site-header"] .brand')).toEqual(['Bright Smile Dental']);
    expect(await texts(page, '[part="hero"] h2')).toEqual(['Gentle, modern dentistry in the heart of London']);
    // The logo comes from the reference server's own URL (publicUrl) and loads.
    await expect
      .poll(() => el.locator('[part="site-header"] img').evaluate((img: ImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);

    expect(await texts(page, '[part="services"] h2')).toEqual(['Our services']);
    // Services describe the practice rather than repeat the treatments; the team leaves out the dentists shown below.
    expect(await texts(page, '[part="services"] .card h3')).toEqual([
      'Family dentistry',
      'Nervous patients',
      'Emergency care',
      'Planning and technology',
    ]);
    expect(await texts(page, '[part="team"] .card h3')).toEqual(['Liam Hughes']);
    expect(await texts(page, '[part="testimonials"] figcaption strong')).toEqual(['Emily Walsh', 'Daniel Kowalski', 'Priya Mehta']);
    const faqs = await texts(page, '[part="faqs"] summary');
    expect(faqs).toHaveLength(5);
    expect(faqs[0]).toBe('Are you accepting new patients?');

    const hours = await texts(page, '[part="hours"] tbody tr');
    expect(hours).toHaveLength(7);
    // The demo is a London clinic's page in en-GB: a 24-hour clock.
    expect(hours[0]).toMatch(/^Monday.*08:00–18:00$/);
    expect(hours[3]).toMatch(/^Thursday.*08:00–20:00$/);
    expect(hours[5]).toMatch(/^Saturday.*09:00–14:00$/);
    // A row's name is its day, spaced from today's label: never "WednesdayToday".
    for (const day of await texts(page, '[part="hours"] th')) expect(day).toMatch(/^[A-Z][a-z]+day( Today)?$/);
    expect(hours[6]).toMatch(/^Sunday.*Closed$/);

    const contact = (await texts(page, '[part="contact"]')).join(' ');
    expect(contact).toContain('+44 20 7946 0958');
    expect(contact).toContain('hello@brightsmile.example');
    expect(contact).toContain('42 Harley Crescent, Marylebone, London W1G 9QD');

    expect(await texts(page, '#treatments-heading')).toEqual(['Treatments & fees']);
    const treatments = await texts(page, '[part="treatment"]');
    expect(treatments).toHaveLength(6);
    expect(treatments.join(' ')).not.toContain('Amalgam');
    const fees = Object.fromEntries(
      await el.locator('[part="treatment"]').evaluateAll((cards) =>
        cards.map((card) => [card.querySelector('h3')?.textContent?.trim(), card.querySelector('strong')?.textContent?.trim()]),
      ),
    ) as Record<string, string>;
    expect(fees).toEqual({
      'Dental check-up': '£65.00',
      'Hygiene appointment': '£85.00',
      'Teeth whitening': '£395.00',
      'White filling': '£145.00',
      'Implant consultation': '£120.00',
      'Clear aligners consultation': '£75.00',
    });

    expect(await texts(page, '#dentists-heading')).toEqual(['Our dentists']);
    expect(await texts(page, '[part="dentist"] h3')).toEqual(['Dr Amara Okafor', 'Dr James Chen', 'Dr Sofia Rossi']);
    expect(await texts(page, '[part="dentist"] p strong')).toEqual(['£65.00', '£120.00', '£75.00']);

    const w = widget(page);
    const steps = bookingSteps(page);
    expect(await texts(page, '#booking-heading')).toEqual(['Book an appointment online']);
    expect(await steps.heading()).toBe('Step 1 of 5 Treatment');
    await steps.chooseTreatment('Dental check-up');
    await expect.poll(() => steps.heading()).toBe('Step 2 of 5 Dentist');
    expect(await texts(page, '[part="booking-form"] .choices button strong')).toEqual(
      expect.arrayContaining(['Dr Amara Okafor', 'Dr James Chen', 'Dr Sofia Rossi']),
    );

    expect(await texts(page, '#status-heading')).toEqual(['Your booking']);
    expect(await w.statusInput.isVisible()).toBe(true);
    expect((await w.statusButton.textContent())?.trim()).toBe('Check status');
  });

  it('loads with no failed request and no console error: an inline favicon, and no link to where the pictures come from', async () => {
    const page = await freshPage();
    const failures: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') failures.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => failures.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => failures.push(`failed: ${request.url()} (${request.failure()?.errorText})`));
    page.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${response.status()}: ${response.url()}`);
    });
    await openDemo(page, `${stack.bff.baseUrl}/`);
    // The logo, like every picture, comes through the BFF.
    const logo = widget(page).el.locator('[part="site-header"] img');
    await expect.poll(() => logo.evaluate((img: ImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await page.waitForLoadState('networkidle');

    expect(failures).toEqual([]);
    expect(await page.locator('head link[rel="icon"]').getAttribute('href')).toMatch(/^data:image\/svg\+xml,/);
    // The pictures come from the BFF (/api/pictures), never from the upstream's origin, which the page never preconnects to.
    const picturesOrigin = new URL((await logo.getAttribute('src'))!).origin;
    expect(picturesOrigin).toBe(new URL(stack.bff.baseUrl).origin);
    expect(await page.locator('head link[rel="preconnect"]').count()).toBe(0);
    expect(await page.content()).not.toContain(`<link rel="preconnect" href="${picturesOrigin}"`);
    expect(await page.locator('head link[rel="stylesheet"]').count()).toBe(0);
  });

  it('loads the widget as the short-cached loader and its immutable hashed module, brotli-compressed', async () => {
    const page = await freshPage();
    const scripts = new Map<string, Record<string, string>>();
    page.on('response', async (response) => {
      if (response.url().startsWith(`${stack.bff.baseUrl}/widget/`)) scripts.set(new URL(response.url()).pathname, await response.allHeaders());
    });
    await openDemo(page, `${stack.bff.baseUrl}/`);
    // The structured data's part is fetched once the content shows: wait for its tag, then for its response to be
    // recorded (the listener reads headers asynchronously), so the count below never races it.
    await page.locator('head script[type="application/ld+json"][data-clinic-booking]').waitFor({ state: 'attached' });
    await expect.poll(() => scripts.size).toBe(3);

    const paths = [...scripts.keys()];
    expect(paths).toContain('/widget/clinic-booking.js');
    expect(paths.filter((path) => /^\/widget\/clinic-booking-seo-[\w-]+\.js$/.test(path))).toHaveLength(1);
    const hashed = paths.find((path) => /^\/widget\/clinic-booking-[\w-]{8}\.js$/.test(path));
    expect(hashed).toBeDefined();
    expect(scripts.get('/widget/clinic-booking.js')).toMatchObject({ 'cache-control': expect.stringMatching(/max-age=300\b/), etag: expect.any(String) });
    expect(scripts.get(hashed!)).toMatchObject({
      'content-encoding': 'br',
      'cache-control': 'max-age=31536000, immutable',
      vary: expect.stringMatching(/Accept-Encoding/i),
    });
  });

  it('loads each content resource once for two widgets on one page', async () => {
    const page = await freshPage();
    const apiCalls: string[] = [];
    page.on('request', (request) => {
      // Content only: the pictures (/api/pictures) are images the browser fetches once each.
      if (request.url().startsWith(`${stack.bff.api}/`) && !request.url().includes('/api/pictures/') && request.method() === 'GET') apiCalls.push(new URL(request.url()).pathname);
    });
    // A clinic's own site, on another origin, with the widget pasted in twice.
    stack.site.pages.set(
      '/two-widgets.html',
      `<!doctype html><html lang="en"><head><meta charset="utf-8">
        <script type="module" src="${stack.bff.baseUrl}/widget/clinic-booking.js"></script></head>
        <body><clinic-booking id="one"></clinic-booking><clinic-booking id="two"></clinic-booking></body></html>`,
    );
    await page.goto(`${stack.site.origin}/two-widgets.html`);
    await page.locator('#one form[part="booking-form"]').waitFor();
    await page.locator('#two form[part="booking-form"]').waitFor();
    await page.waitForLoadState('networkidle');

    expect(await page.locator('#one [part="treatment"]').count()).toBe(6);
    expect(await page.locator('#two [part="treatment"]').count()).toBe(6);
    expect(apiCalls).toEqual(['/api/content']);
  });

  // 320 px is the narrowest the widget promises; 360 and 1280 are the widths the demo is shown at.
  for (const width of [320, 360, 1280]) {
    it(`fits a ${width} px wide window without a horizontal scrollbar and keeps the submit button visible`, async () => {
      const page = await freshPage({ width, height: 800 });
      await openDemo(page, `${stack.bff.baseUrl}/`);
      await page.waitForLoadState('networkidle');
      const { scrollWidth, clientWidth } = await page.evaluate(() => {
        const { documentElement } = (globalThis as unknown as PageGlobals).document;
        return { scrollWidth: documentElement.scrollWidth, clientWidth: documentElement.clientWidth };
      });
      expect(clientWidth).toBe(width);
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth);

      const steps = bookingSteps(page);
      await steps.chooseTreatment('Dental check-up');
      await steps.chooseDentist('Dr Amara Okafor');
      await steps.pickDay(weekdayAhead(4));
      await steps.pickTime('10:00');
      await steps.fillDetails('Width Wendy', '+44 7700 900654');
      const submit = widget(page).form.locator('[part="submit"]');
      await submit.scrollIntoViewIfNeeded();
      expect(await submit.isVisible()).toBe(true);
      const box = await submit.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      expect(box!.y).toBeGreaterThanOrEqual(0);
      // Within the window, give or take the sub-pixel rounding of a scrolled position.
      expect(box!.y + box!.height).toBeLessThanOrEqual(800.5);

      const file = join(ensureScreenshotDir(), `e2e-${width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      expect(statSync(file).size).toBeGreaterThan(10_000);
    });
  }
});
