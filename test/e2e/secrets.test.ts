import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser, newContext, openDemo, waitForReference, widget } from './support/browser.js';
import { bookingSteps } from './support/booking-steps.js';
import { builtWidget, startE2eStack, weekdayAhead, type E2eStack } from './support/stack.js';

interface Received {
  url: string;
  status: number;
  headers: string;
  body: string;
}

describe('what the browser receives', () => {
  let stack: E2eStack;
  let browser: Browser;
  let context: BrowserContext;
  const received: Received[] = [];
  let bundle: string;
  let reference: string;

  /** A whole visit: the page, a booking and a status lookup, keeping every response the browser got. */
  beforeAll(async () => {
    stack = await startE2eStack();
    browser = await launchBrowser();
    context = await newContext(browser);
    const page = await context.newPage();
    const pending: Promise<void>[] = [];
    page.on('response', (response) => {
      // What came over the network: not the blob: script of the widget's Intl warm-up worker, made in the page.
      if (!/^https?:/.test(response.url())) return;
      pending.push(
        (async () => {
          const body = await response.body().catch(() => Buffer.alloc(0));
          received.push({
            url: response.url(),
            status: response.status(),
            headers: JSON.stringify(await response.allHeaders()),
            body: body.toString('latin1'),
          });
        })(),
      );
    });

    await openDemo(page, `${stack.bff.baseUrl}/`);
    const w = widget(page);
    const steps = bookingSteps(page);
    await steps.chooseTreatment('Dental check-up');
    await steps.chooseDentist('Dr Amara Okafor');
    await steps.pickDay(weekdayAhead(6));
    await steps.pickTime('09:45');
    await steps.fillDetails('Secret Sally', '+44 7700 900321');
    await steps.book();
    reference = await waitForReference(page);
    await w.statusInput.fill(reference);
    await w.statusButton.click();
    await w.statusValue.waitFor();
    await page.waitForLoadState('networkidle');
    await Promise.all(pending);
    const { loader, module } = builtWidget();
    bundle = loader.toString('latin1') + module.toString('latin1');
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await stack?.close();
  });

  const leaksOf = (value: string) =>
    received.filter((r) => r.body.includes(value) || r.headers.includes(value)).map((r) => `${r.status} ${r.url}`);

  it('received the page, the widget, content, a booking and a status answer', () => {
    const paths = received.map((r) => `${r.status} ${new URL(r.url).pathname.replace(/status\/.+$/, 'status/:reference')}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        '200 /',
        '200 /widget/clinic-booking.js',
        '200 /api/content',
        '200 /api/availability',
        '200 /api/appointments/book',
        '200 /api/appointments/status',
      ]),
    );
    expect(received.every((r) => r.body.length > 0 || r.status === 204 || r.status === 304)).toBe(true);
  });

  it('never puts the booking reference in a URL: the status lookup carries it in a POST body', () => {
    expect(reference).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){4}$/);
    expect(received.filter((r) => r.url.includes(reference) || r.url.includes(reference.replace(/-/g, ''))).map((r) => r.url)).toEqual([]);
  });

  it('never sends the app secret to the browser, and the widget bundle does not contain it', () => {
    expect(stack.clinic.secret.length).toBeGreaterThanOrEqual(20);
    expect(leaksOf(stack.clinic.secret)).toEqual([]);
    expect(bundle.includes(stack.clinic.secret)).toBe(false);
  });

  it('never sends the BFF access token to the browser, and the widget bundle does not contain it', async () => {
    const token = await stack.bff.tokens.get();
    expect(token.length).toBeGreaterThanOrEqual(20);
    expect(leaksOf(token)).toEqual([]);
    expect(bundle.includes(token)).toBe(false);
  });

  it('never sends the app key to the browser, and the widget bundle does not contain it', () => {
    expect(leaksOf(stack.clinic.appKey)).toEqual([]);
    expect(bundle.includes(stack.clinic.appKey)).toBe(false);
  });
});
