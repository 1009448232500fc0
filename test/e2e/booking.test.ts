import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { bookingSteps } from './support/booking-steps.js';
import { deepFocus, deepFocusId, launchBrowser, newContext, openDemo, tabTo, tabUntil, waitForReference, widget } from './support/browser.js';
import { runClinicCli, startE2eStack, weekdayAhead, type E2eStack } from './support/stack.js';

describe('booking through the demo page', () => {
  let stack: E2eStack;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    stack = await startE2eStack({ cache: { ttlMs: 1_000, maxStaleMs: 3600_000, maxBytes: 1024 * 1024 } });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await stack?.close();
  });

  async function freshPage(): Promise<Page> {
    const context = await newContext(browser);
    contexts.push(context);
    return context.newPage();
  }

  const appointmentsNamed = (name: string) =>
    stack.server.db.selectFrom('appointments').selectAll().where('patient_name', '=', name).execute();

  /** The element that has focus, through shadow roots: its text and data-date / data-time. */
  const focused = (page: Page) =>
    page.evaluate(() => {
      let active = (globalThis as unknown as { document: { activeElement: FocusElement | null } }).document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return { text: active?.textContent?.trim() ?? '', date: active?.getAttribute('data-date') ?? '', time: active?.getAttribute('data-time') ?? '' };
    });
  type FocusElement = { shadowRoot: { activeElement: FocusElement | null } | null; textContent: string | null; getAttribute(name: string): string | null };

  /** Presses Tab until the focused element matches. */
  async function tabToFocused(page: Page, matches: (f: Awaited<ReturnType<typeof focused>>) => boolean, what: string): Promise<void> {
    for (let i = 0; i < 80 && !matches(await focused(page)); i++) await page.keyboard.press('Tab');
    if (!matches(await focused(page))) throw new Error(`Tab never reached ${what}`);
  }

  it('books an appointment by keyboard alone, step by step, and stores every field as typed', async () => {
    const page = await freshPage();
    await openDemo(page, `${stack.bff.baseUrl}/`);
    const steps = bookingSteps(page);
    const date = weekdayAhead(3);
    const typed = {
      name: 'Keyboard Kate',
      phone: '+44 7700 900456',
      address: '7 Baker Street, London NW1 6XE',
      note: 'Sensitive upper left molar; prefers morning.',
    };

    // The hero's "Book your appointment" link, pressed with Enter, moves focus to the first step's heading.
    await tabUntil(page, (f) => f.part === 'cta', 'the hero call to action', 10);
    await page.keyboard.press('Enter');
    expect(await deepFocusId(page)).toBe('step-heading');
    expect(await steps.heading()).toBe('Step 1 of 5 Treatment');

    await tabToFocused(page, (f) => f.text.startsWith('Teeth whitening'), 'Teeth whitening');
    await page.keyboard.press('Enter');
    await expect.poll(() => steps.heading()).toBe('Step 2 of 5 Dentist');
    await tabToFocused(page, (f) => f.text.startsWith('Dr James Chen'), 'Dr James Chen');
    await page.keyboard.press('Enter');
    await expect.poll(() => steps.heading()).toBe('Step 3 of 5 Date and time');
    await tabToFocused(page, (f) => f.date !== '', 'the calendar');
    for (let i = 0; i < 40 && (await focused(page)).date !== date; i++) await page.keyboard.press('ArrowRight');
    expect((await focused(page)).date).toBe(date);
    await page.keyboard.press('Enter');
    // The day's times show beside the calendar, on the same step: one tab stop, then arrows.
    await steps.slot('10:00').waitFor();
    await tabToFocused(page, (f) => f.time !== '', 'the times');
    for (let i = 0; i < 40 && (await focused(page)).time !== '10:00'; i++) await page.keyboard.press('ArrowRight');
    expect((await focused(page)).time).toBe('10:00');
    await page.keyboard.press('Enter');
    await expect.poll(() => steps.heading()).toBe('Step 4 of 5 Your details');

    await tabTo(page, 'patient_name');
    await page.keyboard.type(typed.name);
    await tabTo(page, 'patient_phone');
    await page.keyboard.type(typed.phone);
    await tabTo(page, 'address');
    await page.keyboard.type(typed.address);
    await tabTo(page, 'note');
    await page.keyboard.type(typed.note);
    await tabToFocused(page, (f) => f.text === 'Continue', 'Continue');
    await page.keyboard.press('Enter');
    await expect.poll(() => steps.heading()).toBe('Step 5 of 5 Check and book');
    await tabUntil(page, (f) => f.part === 'submit', 'Book appointment');
    expect(await deepFocus(page)).toMatchObject({ tag: 'button', part: 'submit', type: 'submit' });
    await page.keyboard.press('Enter');
    const reference = await waitForReference(page);
    expect(reference).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){4}$|^[A-Za-z0-9_-]{54}$/);

    const rows = await appointmentsNamed(typed.name);
    expect(rows).toHaveLength(1);
    const ids = async (table: 'dentists' | 'treatments', column: 'doctor_name' | 'treatment_name', name: string) =>
      (await stack.server.db.selectFrom(table).selectAll().where(column, '=', name).executeTakeFirst()) as Record<string, unknown> | undefined;
    expect(rows[0]).toMatchObject({
      care_id: stack.clinic.careId,
      patient_name: typed.name,
      patient_phone: typed.phone,
      appointment_date: date,
      appointment_time: '10:00',
      doctor_id: (await ids('dentists', 'doctor_name', 'Dr James Chen'))?.doctor_id,
      treatment_id: (await ids('treatments', 'treatment_name', 'Teeth whitening'))?.treatment_id,
      address: typed.address,
      note: typed.note,
      status: 'Scheduled',
    });
  });

  it('books a day and a time picked by clicking, which a second visitor then finds taken', async () => {
    const date = weekdayAhead(5);
    const first = await freshPage();
    await openDemo(first, `${stack.bff.baseUrl}/`);
    const steps = bookingSteps(first);
    await steps.chooseTreatment('Dental check-up');
    await steps.chooseDentist('Dr Amara Okafor');
    await steps.pickDay(date);
    await steps.pickTime('11:00');
    await steps.fillDetails('Click Carla', '+44 7700 900777');
    await steps.book();
    const reference = await waitForReference(first);
    expect(reference).not.toBe('');
    expect(await widget(first).el.locator('[part="booking-result"]').textContent()).toContain('Dr Amara Okafor');
    const [row] = await appointmentsNamed('Click Carla');
    expect(row).toMatchObject({ appointment_date: date, appointment_time: '11:00', status: 'Scheduled' });

    // Another visitor, another browser context: the same dentist's 11:00 that day is greyed out.
    const second = await freshPage();
    await openDemo(second, `${stack.bff.baseUrl}/`);
    const again = bookingSteps(second);
    await again.chooseTreatment('Dental check-up');
    await again.chooseDentist('Dr Amara Okafor');
    await again.pickDay(date);
    const taken = again.slot('11:00');
    await taken.waitFor();
    expect(await taken.isDisabled()).toBe(true);
    expect(await taken.getAttribute('aria-describedby')).toBe('why-taken');
    // The 30-minute check-up holds 11:00-11:30: 11:15 meets it, 11:30 follows it.
    expect(await again.slot('11:15').isDisabled()).toBe(true);
    expect(await again.slot('11:30').isDisabled()).toBe(false);
  });

  it('shows Scheduled for the reference shown, then Completed after the clinic CLI sets the status', async () => {
    const page = await freshPage();
    await openDemo(page, `${stack.bff.baseUrl}/`);
    const w = widget(page);
    const steps = bookingSteps(page);
    const name = 'Status Sam';
    await steps.chooseTreatment('Not sure yet');
    await steps.chooseDentist('Any dentist');
    await steps.pickDay(weekdayAhead(4));
    await steps.pickTime('11:30');
    await steps.fillDetails(name, '020 7946 0000');
    await steps.book();
    const reference = await waitForReference(page);
    expect(reference).not.toBe('');

    await w.statusInput.fill('');
    await w.statusInput.pressSequentially(reference);
    await w.statusButton.click();
    await w.statusValue.waitFor();
    expect((await w.statusValue.textContent())?.trim()).toBe('Scheduled');

    const [row] = await appointmentsNamed(name);
    expect(row).toBeDefined();
    const printed = await runClinicCli(stack.dbPath, [
      'appointments',
      'set-status',
      '--id',
      String(row!.appointment_id),
      '--status',
      'Completed',
    ]);
    expect(printed).toEqual({ appointment_id: row!.appointment_id, status: 'Completed' });

    // No waiting past the BFF's cache TTL: status lookups are never cached.
    await w.statusButton.click();
    await expect.poll(async () => (await w.statusValue.textContent())?.trim(), { timeout: 5_000 }).toBe('Completed');
  });
});
