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
 * And README's pictures (docs/img/widget-*.png, README_PICTURES below), drawn
 * small so that README stays light; they are committed, so a run changes them.
 *
 * SCREENSHOTS=booking, manage or readme takes only those (booking includes readme).
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
/** Which pictures to take: every kind unless SCREENSHOTS names one; README's pictures are booking states too. */
const ONLY = process.env.SCREENSHOTS;
const takes = (kind: 'booking' | 'manage' | 'readme') => !ONLY || ONLY === kind || (kind === 'readme' && ONLY === 'booking');

/**
 * README's pictures: a state of the booking form (`time`: the chosen day's times; `treatment`: the first
 * step) at a window `width` wide, from the widget's top (or from `from`'s, less a margin) `height` CSS px
 * down, drawn at `scale` (a device pixel ratio below 1, so the browser renders them small rather than
 * a picture being shrunk). README's alt texts describe them: keep both in step
 * (test/docs/readme-pictures.test.ts).
 */
const README_PICTURES = [
  { file: 'widget-calendar-1280.png', lang: 'en', width: 1280, state: 'time', height: 780, scale: 1 / 2 },
  { file: 'widget-times-390.png', lang: 'en', width: 390, state: 'time', from: '.calendar', height: 700, scale: 2 / 3 },
  { file: 'widget-arabic-390.png', lang: 'ar', width: 390, state: 'treatment', height: 840, scale: 2 / 3 },
] as const;
const README_IMG = join(REPO_ROOT, 'docs', 'img');

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
  // Each run books one time: the first still free.
  const free = await pickDay(form, freshDay());
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

/** On the day step, goes to `date`'s month and picks it; resolves with its first free time, once shown. */
async function pickDay(form: Locator, date: string): Promise<Locator> {
  for (let i = 0; i < 13 && (await form.locator(`[data-date="${date}"]`).count()) === 0; i++) await form.locator('.month > button:last-of-type').click();
  await form.locator(`[data-date="${date}"]`).click();
  // Once the day's availability has come: while it loads, the times show inert, the taken ones not yet known.
  const free = form.locator('.times[aria-busy="false"] .slots [data-time]:not([disabled])').first();
  await free.waitFor();
  return free;
}

/** README's pictures (README_PICTURES), each in a context of its own at its scale; the times on a day of their own. */
async function readmePictures(browser: Browser, stack: E2eStack): Promise<void> {
  for (const picture of README_PICTURES) {
    const { lang, width, scale } = picture;
    const context = await newContext(browser, {
      viewport: { width, height: 1200 },
      deviceScaleFactor: scale,
      locale: lang === 'en' ? 'en-GB' : lang,
    });
    const page = await context.newPage();
    await page.goto(`${stack.site.origin}/${lang}/booking.html`);
    const el = page.locator('clinic-booking');
    const form = el.locator('form[part="booking-form"]');
    await form.waitFor();
    if (picture.state === 'time') {
      await form.locator('.choices button', { hasText: 'Dental check-up' }).click();
      await form.locator('.choices button', { hasText: 'Dr Amara Okafor' }).click();
      await pickDay(form, freshDay());
    }
    // Each step scrolls the form into view: back to the top, so that the boxes are in the page's coordinates.
    await page.evaluate('window.scrollTo(0, 0)');
    await page.waitForTimeout(150);
    const box = await el.boundingBox();
    const top = 'from' in picture ? await form.locator(picture.from).boundingBox() : box;
    if (!box || !top) throw new Error(`${picture.file}: nothing to draw`);
    const y = 'from' in picture ? top.y - 12 : top.y;
    // No further down than a margin below the form: the page's next section is no part of the picture.
    const formBox = await form.boundingBox();
    const height = formBox ? Math.min(picture.height, formBox.y + formBox.height + 12 - y) : picture.height;
    await page.screenshot({
      path: join(README_IMG, picture.file),
      clip: { x: box.x, y, width: box.width, height },
      fullPage: true,
      animations: 'disabled',
    });
    await context.close();
  }
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
  if (takes('booking') || takes('manage')) for (const file of readdirSync(OUT)) if (file.endsWith('.png')) rmSync(join(OUT, file));
  const stack = await startE2eStack();
  const browser = await launchBrowser();
  try {
    for (const lang of LANGS) {
      stack.site.pages.set(`/${lang}/booking.html`, pageHtml(stack.bff.baseUrl, lang, 'sections="booking status"'));
      stack.site.pages.set(`/${lang}/button.html`, pageHtml(stack.bff.baseUrl, lang, 'mode="button"'));
      stack.site.pages.set(`/${lang}/manage.html`, pageHtml(stack.bff.baseUrl, lang, 'sections="booking"'));
      for (const width of takes('booking') ? WIDTHS : []) {
        await bookingStates(browser, stack, lang, width);
        await dialogState(browser, stack, lang, width);
        process.stdout.write(`${lang} ${width} px\n`);
      }
    }
    if (takes('readme')) {
      await readmePictures(browser, stack);
      process.stdout.write(`README's pictures in ${README_IMG}\n`);
    }
    if (takes('manage')) {
      const booking = await manageBooking(stack);
      for (const lang of LANGS) {
        for (const width of MANAGE_WIDTHS) {
          for (const scene of manageScenes(lang, freshDay)) await manageState(browser, stack, booking, lang, width, scene);
          process.stdout.write(`manage view: ${lang} ${width} px\n`);
        }
      }
    }
  } finally {
    await browser.close();
    await stack.close();
  }
  process.stdout.write(`screenshots in ${OUT}\n`);
}

await main();
