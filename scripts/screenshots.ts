/**
 * npm run screenshots: pictures of the widget for people to look at. It runs
 * the built stack (`npm run build` first: the reference server with the demo
 * clinic, the BFF, the built widget, as the e2e tests do) and writes PNGs of
 * every booking step, the confirmation, the status, a validation error and the
 * button-mode dialog, at 320, 390, 768 and 1280 px, in English, German and
 * Arabic, to screenshots/ (git-ignored): screenshots/<lang>-<width>-<nn>-<state>.png.
 *
 * Then a booking's manage view in each of its states, at 390 and 1280 px
 * (screenshots/<lang>-<width>-m<n>-<state>.png), opened by a manage link. Its
 * status and change-request answers are stubbed in the browser (the BFF's
 * `changes` and POST /api/appointments/change-requests), the calendar's
 * availability is the stack's own. The states are scripts/support/manage-scenes.ts's,
 * which scripts/screenshots-other-browsers.ts takes in Firefox and WebKit.
 *
 * SCREENSHOTS=manage (or booking) takes only those.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, newContext } from '../test/e2e/support/browser.js';
import { REPO_ROOT, startE2eStack, WIDGET_BUNDLE, type E2eStack } from '../test/e2e/support/stack.js';
import {
  changeView,
  freshDays,
  MANAGE_REFERENCE,
  manageBooking,
  manageScenes,
  pageHtml,
  REFUSAL,
  statusAnswer,
  takeChange,
  type ChangeRequest,
  type ManageBooking,
  type ManageScene,
} from './support/manage-scenes.js';

const OUT = join(REPO_ROOT, 'screenshots');
const WIDTHS = [320, 390, 768, 1280];
const LANGS = ['en', 'de', 'ar'];
const MANAGE_WIDTHS = [390, 1280];
/** Which pictures to take: both kinds unless SCREENSHOTS names one. */
const ONLY = process.env.SCREENSHOTS;

async function shoot(target: Page | Locator, file: string): Promise<void> {
  await (target as Locator).page?.().waitForTimeout(150);
  await target.screenshot({ path: join(OUT, file), animations: 'disabled' });
}

/** Each run books on a day of its own, so no run meets another's booking. */
const freshDay = freshDays();

async function bookingStates(browser: Browser, stack: E2eStack, lang: string, width: number): Promise<void> {
  const context = await newContext(browser, { viewport: { width, height: 900 }, locale: lang === 'en' ? 'en-GB' : lang });
  const page = await context.newPage();
  await page.goto(`${stack.site.origin}/${lang}/booking.html`);
  const el = page.locator('clinic-booking');
  const form = el.locator('form[part="booking-form"]');
  await form.waitFor();
  const name = (n: number, state: string) => `${lang}-${width}-${String(n).padStart(2, '0')}-${state}.png`;
  await shoot(el, name(1, 'treatment'));
  await form.locator('.choices button', { hasText: 'Dental check-up' }).click();
  await shoot(el, name(2, 'dentist'));
  await form.locator('.choices button', { hasText: 'Dr Amara Okafor' }).click();
  await shoot(el, name(3, 'day'));
  const date = freshDay();
  for (let i = 0; i < 13 && (await form.locator(`[data-date="${date}"]`).count()) === 0; i++) await form.locator('.month > button:last-of-type').click();
  await form.locator(`[data-date="${date}"]`).click();
  // Each run books one time: the first still free.
  const free = form.locator('.slots [data-time]:not([disabled])').first();
  await free.waitFor();
  await shoot(el, name(4, 'time'));
  await free.click();
  await form.locator('#patient_name').waitFor();
  await shoot(el, name(5, 'details'));
  await form.locator('button[type="submit"]').click();
  await shoot(el, name(6, 'details-errors'));
  await form.locator('#patient_name').fill('Alex Example');
  await form.locator('#patient_phone').fill('+44 7700 900123');
  await form.locator('button[type="submit"]').click();
  await form.locator('[part="submit"]').waitFor();
  await shoot(el, name(7, 'review'));
  await form.locator('[part="submit"]').click();
  await el.locator('[data-reference]').waitFor({ timeout: 8000 }).catch(async (error: unknown) => {
    throw new Error(`not booked: ${await form.locator('[role="alert"]').allTextContents()}`, { cause: error });
  });
  await shoot(el, name(8, 'booked'));
  // The status card as a BFF that takes change requests answers it (with `changes`): "Manage booking" shows.
  await page.route('**/api/appointments/status', async (route) => {
    const answer = (await (await route.fetch()).json()) as { data: object };
    await route.fulfill({ json: { ...answer, data: { ...answer.data, changes: changeView({}) } } });
  });
  const status = el.locator('clinic-booking-status');
  await status.locator('button[type="submit"]').click();
  await status.locator('[data-status]').waitFor();
  await shoot(el.locator('[part="status"]'), name(9, 'status'));
  await status.locator('#reference').fill('not-a-reference');
  await status.locator('button[type="submit"]').click();
  await shoot(el.locator('[part="status"]'), name(10, 'status-error'));
  await context.close();
}

async function dialogState(browser: Browser, stack: E2eStack, lang: string, width: number): Promise<void> {
  const context = await newContext(browser, { viewport: { width, height: 800 }, locale: lang === 'en' ? 'en-GB' : lang });
  const page = await context.newPage();
  await page.goto(`${stack.site.origin}/${lang}/button.html`);
  const open = page.locator('clinic-booking [part="open-button"]');
  await open.waitFor();
  await open.click();
  await page.locator('clinic-booking dialog form').waitFor();
  await shoot(page, `${lang}-${width}-11-dialog.png`);
  await context.close();
}

/**
 * One state of the manage view (scripts/support/manage-scenes.ts): a page opened by a manage link,
 * the status answer stubbed with the scene's `status` and `changes`, a change request taken as the
 * BFF would take it; the scene's act takes it from there.
 */
async function manageState(browser: Browser, stack: E2eStack, booking: ManageBooking, lang: string, width: number, scene: ManageScene): Promise<void> {
  const context = await newContext(browser, { viewport: { width, height: 900 }, locale: lang === 'en' ? 'en-GB' : lang });
  const page = await context.newPage();
  let changes = scene.changes;
  await page.route('**/api/appointments/status', (route) => route.fulfill({ json: statusAnswer(booking, scene.status ?? 'Scheduled', changes) }));
  await page.route('**/api/appointments/change-requests', async (route) => {
    const taken = takeChange(changes, route.request().postDataJSON() as ChangeRequest);
    changes = taken.changes;
    await route.fulfill({ json: taken.answer });
  });
  await page.goto(`${stack.site.origin}/${lang}/manage.html#clinic-booking-manage=${MANAGE_REFERENCE}`);
  const view = page.locator('clinic-booking clinic-booking-manage');
  await view.locator('dl').waitFor();
  await scene.act?.({
    count: (selector) => view.locator(selector).count(),
    click: (selector, nth = 0) => view.locator(selector).nth(nth).click(),
    fill: (selector, text) => view.locator(selector).fill(text),
    waitFor: (selector) => view.locator(selector).first().waitFor(),
    refuseChanges: async () => void (await page.route('**/api/appointments/change-requests', (route) => route.fulfill(REFUSAL))),
  });
  await shoot(page.locator('clinic-booking [part="booking"]'), `${lang}-${width}-m${scene.n}-${scene.name}.png`);
  await context.close();
}

async function main(): Promise<void> {
  if (!existsSync(WIDGET_BUNDLE)) throw new Error('no built widget: run npm run build first');
  // This run's own pictures go; the other browsers' (screenshots/firefox, screenshots/webkit) stay.
  mkdirSync(OUT, { recursive: true });
  for (const file of readdirSync(OUT)) if (file.endsWith('.png')) rmSync(join(OUT, file));
  const stack = await startE2eStack();
  const browser = await launchBrowser();
  try {
    for (const lang of LANGS) {
      stack.site.pages.set(`/${lang}/booking.html`, pageHtml(stack.bff.baseUrl, lang, 'sections="booking status"'));
      stack.site.pages.set(`/${lang}/button.html`, pageHtml(stack.bff.baseUrl, lang, 'mode="button"'));
      stack.site.pages.set(`/${lang}/manage.html`, pageHtml(stack.bff.baseUrl, lang, 'sections="booking"'));
      for (const width of ONLY === 'manage' ? [] : WIDTHS) {
        await bookingStates(browser, stack, lang, width);
        await dialogState(browser, stack, lang, width);
        process.stdout.write(`${lang} ${width} px\n`);
      }
    }
    const booking = await manageBooking(stack);
    for (const lang of LANGS) {
      for (const width of ONLY === 'booking' ? [] : MANAGE_WIDTHS) {
        for (const scene of manageScenes(lang, freshDay)) await manageState(browser, stack, booking, lang, width, scene);
        process.stdout.write(`manage view: ${lang} ${width} px\n`);
      }
    }
  } finally {
    await browser.close();
    await stack.close();
  }
  process.stdout.write(`screenshots in ${OUT}\n`);
}

await main();
