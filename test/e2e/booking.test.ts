import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  dateTimeKeys,
  deepFocus,
  deepFocusId,
  launchBrowser,
  newContext,
  openDemo,
  tabTo,
  tabUntil,
  waitForReference,
  widget,
  type DateTimeKeys,
} from './support/browser.js';
import type { SelectControl } from './support/dom.js';
import { runClinicCli, startE2eStack, weekdayAhead, type E2eStack } from './support/stack.js';

describe('booking through the demo page', () => {
  let stack: E2eStack;
  let browser: Browser;
  let keys: DateTimeKeys;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    stack = await startE2eStack({ cache: { ttlMs: 1_000, maxStaleMs: 3600_000, maxBytes: 1024 * 1024 } });
    browser = await launchBrowser();
    keys = await dateTimeKeys(browser);
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

  /**
   * Moves the focused, closed <select> to the option with this text with arrow
   * keys only (Chromium on Linux changes the choice without opening the list).
   * Reading the options is looking at the screen, not interacting.
   */
  async function chooseByKeyboard(page: Page, selectId: string, optionText: string): Promise<string> {
    const select = widget(page).field(selectId);
    const { index, current, value } = await select.evaluate(
      (el: SelectControl, text) => {
        const options = [...el.options];
        const i = options.findIndex((o) => o.text.trim() === text);
        return { index: i, current: el.selectedIndex, value: options[i]?.value ?? '' };
      },
      optionText,
    );
    if (index < 0) throw new Error(`no option "${optionText}" in #${selectId}`);
    for (let i = current; i < index; i += 1) await page.keyboard.press('ArrowDown');
    for (let i = current; i > index; i -= 1) await page.keyboard.press('ArrowUp');
    return value;
  }

  it('books an appointment by keyboard alone and stores every field as typed', async () => {
    const page = await freshPage();
    await openDemo(page, `${stack.bff.baseUrl}/`);
    const date = weekdayAhead(3);
    const typed = {
      name: 'Keyboard Kate',
      phone: '+44 7700 900456',
      address: '7 Baker Street, London NW1 6XE',
      note: 'Sensitive upper left molar; prefers morning.',
    };

    // The hero's "Book your appointment" link, pressed with Enter, moves focus into the form.
    await tabUntil(page, (focused) => focused.part === 'cta', 'the hero call to action', 10);
    await page.keyboard.press('Enter');
    expect(await deepFocusId(page)).toBe('patient_name');

    await page.keyboard.type(typed.name);
    await tabTo(page, 'patient_phone');
    await page.keyboard.type(typed.phone);
    await tabTo(page, 'appointment_date');
    await page.keyboard.type(keys.date(date));
    await tabTo(page, 'appointment_time');
    await page.keyboard.type(keys.time('10:00'));
    await tabTo(page, 'doctor_id');
    const doctorId = await chooseByKeyboard(page, 'doctor_id', 'Dr James Chen');
    await tabTo(page, 'treatment_id');
    const treatmentId = await chooseByKeyboard(page, 'treatment_id', 'Teeth whitening');
    await tabTo(page, 'address');
    await page.keyboard.type(typed.address);
    await tabTo(page, 'note');
    await page.keyboard.type(typed.note);
    await page.keyboard.press('Tab');
    expect(await deepFocus(page)).toMatchObject({ tag: 'button', part: 'submit', type: 'submit' });
    await page.keyboard.press('Enter');
    const reference = await waitForReference(page);
    expect(reference).toMatch(/^[A-Za-z0-9_-]{20,}$/);

    const rows = await appointmentsNamed(typed.name);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      care_id: stack.clinic.careId,
      patient_name: typed.name,
      patient_phone: typed.phone,
      appointment_date: date,
      appointment_time: '10:00',
      doctor_id: Number(doctorId),
      treatment_id: Number(treatmentId),
      address: typed.address,
      note: typed.note,
      status: 'Scheduled',
    });
    const dentist = await stack.server.db
      .selectFrom('dentists')
      .select('doctor_name')
      .where('doctor_id', '=', Number(doctorId))
      .executeTakeFirst();
    const treatment = await stack.server.db
      .selectFrom('treatments')
      .select('treatment_name')
      .where('treatment_id', '=', Number(treatmentId))
      .executeTakeFirst();
    expect(dentist?.doctor_name).toBe('Dr James Chen');
    expect(treatment?.treatment_name).toBe('Teeth whitening');
  });

  it('shows Scheduled for the reference shown, then Completed after the clinic CLI sets the status', async () => {
    const page = await freshPage();
    await openDemo(page, `${stack.bff.baseUrl}/`);
    const w = widget(page);
    const name = 'Status Sam';
    await w.field('patient_name').fill(name);
    await w.field('patient_phone').fill('020 7946 0000');
    await w.field('appointment_date').fill(weekdayAhead(4));
    await w.field('appointment_time').fill('11:30');
    await w.submit.click();
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
