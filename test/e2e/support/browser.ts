import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import type { DomElement, FormControl, PageGlobals } from './dom.js';
import { REPO_ROOT } from './stack.js';

/** The Debian Chromium (never a downloaded browser). */
export const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';

export const SCREENSHOT_DIR = join(REPO_ROOT, 'test-results');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROME_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/**
 * A fresh context (own storage and HTTP cache) in Europe/London, so the
 * visitor's "today" (the widget's date checks) is the clinic's today.
 */
export async function newContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    locale: 'en-GB',
    timezoneId: 'Europe/London',
    viewport: { width: 1280, height: 900 },
    ...options,
  });
  context.setDefaultTimeout(15_000);
  return context;
}

/** Turns Chromium's HTTP cache off for this page, so every /api request reaches the BFF. */
export async function disableHttpCache(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
}

export function ensureScreenshotDir(): string {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return SCREENSHOT_DIR;
}

/** The widget's parts; Playwright's CSS locators pierce open shadow roots. */
export function widget(page: Page) {
  const el = page.locator('clinic-booking').first();
  const form = el.locator('form[part="booking-form"]');
  const status = el.locator('clinic-booking-status');
  return {
    el,
    form,
    field: (id: string) => form.locator(`#${id}`),
    submit: form.locator('button[type="submit"]'),
    failure: form.locator('[role="alert"]'),
    reference: el.locator('[data-reference]'),
    statusInput: status.locator('#reference'),
    statusButton: status.locator('button[type="submit"]'),
    statusValue: status.locator('[data-status]'),
    statusAlert: status.locator('[role="alert"]'),
  };
}

/** Opens a page and waits until the widget has rendered its content (the booking form is there). */
export async function openDemo(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await widget(page).form.waitFor();
}

export interface FocusedElement {
  tag: string;
  id: string;
  part: string;
  type: string;
}

/** The element that has focus, looking through open shadow roots. */
export async function deepFocus(page: Page): Promise<FocusedElement> {
  return page.evaluate(() => {
    let active = (globalThis as unknown as PageGlobals).document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return {
      tag: active?.localName ?? '',
      id: active?.id ?? '',
      part: active?.getAttribute('part') ?? '',
      type: active?.getAttribute('type') ?? '',
    };
  });
}

/** The id of the element that has focus, looking through open shadow roots. */
export async function deepFocusId(page: Page): Promise<string> {
  return (await deepFocus(page)).id;
}

/** Presses Tab until the focused element (through shadow roots) matches. */
export async function tabUntil(page: Page, matches: (focused: FocusedElement) => boolean, what: string, maxPresses = 80): Promise<void> {
  for (let i = 0; i < maxPresses; i += 1) {
    if (matches(await deepFocus(page))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${what} (focus is on ${JSON.stringify(await deepFocus(page))})`);
}

/** Presses Tab until the focused element (through shadow roots) has this id. */
export async function tabTo(page: Page, id: string, maxPresses = 80): Promise<void> {
  await tabUntil(page, (focused) => focused.id === id, `#${id}`, maxPresses);
}

/** What the booking form shows now: every field's value, the field errors and the alert, for failure messages. */
export async function formState(page: Page): Promise<Record<string, unknown>> {
  return widget(page)
    .el.evaluate((host: DomElement) => {
      const form = host.shadowRoot?.querySelector('clinic-booking-form')?.shadowRoot;
      if (!form) return { form: 'not rendered' };
      const values = Object.fromEntries(
        [...(form.querySelectorAll('input, select, textarea') as Iterable<FormControl>)].map((el) => [el.id, el.value]),
      );
      const errors = [...form.querySelectorAll('.error')].map((el) => el.textContent?.trim());
      const alert = form.querySelector('[role="alert"]')?.textContent?.trim() ?? null;
      return { values, errors, alert };
    })
    .catch((error: unknown) => ({ unavailable: String(error) }));
}

/** Waits for the booking reference; on a timeout the error shows what the form showed instead. */
export async function waitForReference(page: Page, timeout = 15_000): Promise<string> {
  const reference = widget(page).reference;
  try {
    await reference.waitFor({ timeout });
  } catch {
    throw new Error(`no booking reference appeared; the form shows ${JSON.stringify(await formState(page))}`);
  }
  return (await reference.textContent())?.trim() ?? '';
}

/** The keystrokes that enter a date and a time into this browser's <input type="date|time">. */
export interface DateTimeKeys {
  date(isoDate: string): string;
  time(hhmm: string): string;
}

/**
 * Chromium lays out date and time inputs in its UI locale (the Debian package
 * ships en-US only: mm/dd/yyyy and a 12-hour clock with AM/PM), whatever the
 * page's locale. This finds the layout by typing into scratch inputs, so the
 * keyboard test types what a person at this browser would.
 */
export async function dateTimeKeys(browser: Browser): Promise<DateTimeKeys> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.setContent('<input id="d" type="date"><input id="t1" type="time"><input id="t2" type="time"><input id="t3" type="time">');
    await page.focus('#d');
    await page.keyboard.type('01022030');
    await page.focus('#t1');
    await page.keyboard.type('1000');
    await page.focus('#t2');
    await page.keyboard.type('1000A');
    await page.focus('#t3');
    await page.keyboard.type('0300P');
    const [date, time24, morning, afternoon] = await page.evaluate(() =>
      ['d', 't1', 't2', 't3'].map((id) => ((globalThis as unknown as PageGlobals).document.getElementById(id) as FormControl).value),
    );
    const dayFirst = date === '2030-02-01';
    if (!dayFirst && date !== '2030-01-02') throw new Error(`unknown date input layout (typed 01022030, got "${date}")`);
    const twelveHour = time24 !== '10:00';
    if (twelveHour && (morning !== '10:00' || afternoon !== '15:00')) {
      throw new Error(`unknown time input layout (got "${time24}", "${morning}" and "${afternoon}")`);
    }
    return {
      date(isoDate) {
        const [y, m, d] = isoDate.split('-') as [string, string, string];
        return dayFirst ? `${d}${m}${y}` : `${m}${d}${y}`;
      },
      time(hhmm) {
        const [h, m] = hhmm.split(':').map(Number) as [number, number];
        if (!twelveHour) return `${String(h).padStart(2, '0')}${String(m).padStart(2, '0')}`;
        const h12 = h % 12 === 0 ? 12 : h % 12;
        return `${String(h12).padStart(2, '0')}${String(m).padStart(2, '0')}${h < 12 ? 'A' : 'P'}`;
      },
    };
  } finally {
    await context.close();
  }
}
