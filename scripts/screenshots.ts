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
 * availability is the stack's own.
 *
 * SCREENSHOTS=manage (or booking) takes only those.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, newContext } from '../test/e2e/support/browser.js';
import { REPO_ROOT, startE2eStack, weekdayAhead, WIDGET_BUNDLE, type E2eStack } from '../test/e2e/support/stack.js';

const OUT = join(REPO_ROOT, 'screenshots');
const WIDTHS = [320, 390, 768, 1280];
const LANGS = ['en', 'de', 'ar'];
const MANAGE_WIDTHS = [390, 1280];
/** Which pictures to take: both kinds unless SCREENSHOTS names one. */
const ONLY = process.env.SCREENSHOTS;
/** The reference of the stubbed booking the manage view shows. */
const MANAGE_REFERENCE = 'K7QF-2M9X-PA4T-Z3RW-8HNC';

function pageHtml(bff: string, lang: string, attributes: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
    <title>clinic-booking</title><style>body { margin: 0; padding: 1rem; font-family: system-ui, sans-serif; background: #f8fafc; }</style>
    <script type="module" src="${bff}/widget/clinic-booking.js"></script></head>
    <body><clinic-booking ${attributes}></clinic-booking></body></html>`;
}

async function shoot(target: Page | Locator, file: string): Promise<void> {
  await (target as Locator).page?.().waitForTimeout(150);
  await target.screenshot({ path: join(OUT, file), animations: 'disabled' });
}

/** Each run books on a day of its own, so no run meets another's booking. */
const usedDays = new Set<string>();
function freshDay(): string {
  let ahead = 4;
  while (usedDays.has(weekdayAhead(ahead))) ahead++;
  usedDays.add(weekdayAhead(ahead));
  return weekdayAhead(ahead);
}

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

/** The BFF's `changes` for the stubbed booking: both actions open, nothing asked yet, unless overridden. */
function changeView(overrides: Record<string, unknown>): Record<string, unknown> {
  return {
    cancel_requested_at: null,
    move_requested_at: null,
    move_preferred_starts: [],
    can_request_cancel: true,
    can_request_move: true,
    closed_reason: null,
    min_notice_hours: 24,
    move_offered: true,
    text: null,
    booking_page_url: null,
    ...overrides,
  };
}

interface ManageBooking {
  date: string;
  treatmentId: number;
  doctorId: number;
}

/**
 * One state of the manage view: a page opened by a manage link, the status answer stubbed as
 * `status` and `changes`; `act` takes it from there (clicks, a stubbed change-request answer).
 */
async function manageState(
  browser: Browser,
  stack: E2eStack,
  booking: ManageBooking,
  lang: string,
  width: number,
  file: string,
  state: { status?: string; changes: Record<string, unknown>; act?: (view: Locator, page: Page) => Promise<void> },
): Promise<void> {
  const context = await newContext(browser, { viewport: { width, height: 900 }, locale: lang === 'en' ? 'en-GB' : lang });
  const page = await context.newPage();
  let changes = state.changes;
  const statusAnswer = () => ({
    success: true,
    message: 'ok',
    data: { status: state.status ?? 'Scheduled', name: 'Alex Example', date: booking.date, time: '10:30', treatment_id: booking.treatmentId, doctor_id: booking.doctorId, changes },
  });
  await page.route('**/api/appointments/status', (route) => route.fulfill({ json: statusAnswer() }));
  // A request taken is what the status then says, as the BFF's would.
  await page.route('**/api/appointments/change-requests', async (route) => {
    const body = route.request().postDataJSON() as { kind: 'cancel' | 'move'; preferred_starts?: unknown[] };
    const at = new Date().toISOString();
    changes =
      body.kind === 'cancel'
        ? { ...changes, cancel_requested_at: at, can_request_cancel: false, can_request_move: false }
        : { ...changes, move_requested_at: at, move_preferred_starts: body.preferred_starts, can_request_move: false };
    await route.fulfill({ json: { success: true, message: 'Change request taken', data: { kind: body.kind, requested_at: at, already_requested: false } } });
  });
  await page.goto(`${stack.site.origin}/${lang}/manage.html#clinic-booking-manage=${MANAGE_REFERENCE}`);
  const view = page.locator('clinic-booking clinic-booking-manage');
  await view.locator('dl').waitFor();
  await state.act?.(view, page);
  await shoot(page.locator('clinic-booking [part="booking"]'), file);
  await context.close();
}

/** The manage view's states, in one language at one width. */
async function manageStates(browser: Browser, stack: E2eStack, booking: ManageBooking, lang: string, width: number): Promise<void> {
  const name = (n: number, state: string) => `${lang}-${width}-m${n}-${state}.png`;
  const shootState = (n: number, state: string, options: Parameters<typeof manageState>[6]) => manageState(browser, stack, booking, lang, width, name(n, state), options);
  const clinicText = { en: 'Free of charge until 24 hours before.', de: 'Kostenlos bis 24 Stunden vorher.', ar: 'مجانًا حتى 24 ساعة قبل الموعد.' }[lang];
  await shootState(1, 'open', { changes: changeView({ text: clinicText }) });
  await shootState(2, 'confirm-cancel', { changes: changeView({}), act: (view) => view.locator('.actions button.secondary').click() });
  const pickThree = async (view: Locator) => {
    await view.locator('.actions button:not(.secondary)').click();
    const [first, second] = [freshDay(), freshDay()];
    for (const [day, count] of [[first, 2], [second, 1]] as const) {
      for (let i = 0; i < 13 && (await view.locator(`[data-date="${day}"]`).count()) === 0; i++) await view.locator('.month > button:last-of-type').click();
      await view.locator(`[data-date="${day}"]`).click();
      const free = view.locator('.times [data-time]:not([disabled])');
      await free.first().waitFor();
      for (let i = 0; i < count; i++) await free.nth(i * 3 + 2).click();
    }
    await view.locator('#message').fill({ en: 'Mornings suit me best.', de: 'Vormittags passt es mir am besten.', ar: 'الصباح أنسب لي.' }[lang] ?? '');
  };
  await shootState(3, 'move-three-starts', { changes: changeView({}), act: pickThree });
  await shootState(4, 'move-requested', {
    changes: changeView({}),
    act: async (view) => {
      await pickThree(view);
      await view.locator('form.step button[type="submit"]').click();
      await view.locator('.outcome li').first().waitFor();
    },
  });
  await shootState(5, 'cancel-requested', {
    changes: changeView({}),
    act: async (view) => {
      await view.locator('.actions button.secondary').click();
      await view.locator('.step button.danger').click();
      await view.locator('.outcome').waitFor();
    },
  });
  await shootState(6, 'cancelled', {
    status: 'Cancelled',
    changes: changeView({ cancel_requested_at: new Date().toISOString(), can_request_cancel: false, can_request_move: false, closed_reason: 'already_cancelled' }),
    act: (view) => view.locator('a[download]').waitFor(),
  });
  await shootState(7, 'inside-window', {
    changes: changeView({ can_request_cancel: false, can_request_move: false, closed_reason: 'inside_change_window', text: clinicText }),
  });
  await shootState(8, 'refused', {
    changes: changeView({}),
    act: async (view, page) => {
      await page.route('**/api/appointments/change-requests', (route) =>
        route.fulfill({ status: 429, headers: { 'retry-after': '120' }, json: { success: false, message: 'Too many requests', error_code: 'rate_limited' } }),
      );
      await view.locator('.actions button.secondary').click();
      await view.locator('.step button.danger').click();
      await view.locator('#failure').waitFor();
    },
  });
}

/** The demo clinic's ids for the stubbed booking: Dental check-up with Dr Amara Okafor, on a weekday ahead. */
async function manageBooking(stack: E2eStack): Promise<ManageBooking> {
  const content = (await (await fetch(`${stack.bff.baseUrl}/api/content`)).json()) as {
    data: { treatments: { treatment_id: number; treatment_name: string }[]; dentists: { doctor_id: number; doctor_name: string }[] };
  };
  const treatment = content.data.treatments.find((t) => t.treatment_name === 'Dental check-up');
  const dentist = content.data.dentists.find((d) => d.doctor_name === 'Dr Amara Okafor');
  if (!treatment || !dentist) throw new Error('the demo clinic has no Dental check-up with Dr Amara Okafor');
  return { date: weekdayAhead(12), treatmentId: treatment.treatment_id, doctorId: dentist.doctor_id };
}

async function main(): Promise<void> {
  if (!existsSync(WIDGET_BUNDLE)) throw new Error('no built widget: run npm run build first');
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
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
        await manageStates(browser, stack, booking, lang, width);
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
