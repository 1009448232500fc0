import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { bookingSteps } from './support/booking-steps.js';
import { launchBrowser, newContext, openDemo, waitForReference, widget } from './support/browser.js';
import { startE2eStack, weekdayAhead, type E2eStack } from './support/stack.js';

/**
 * An appointment holds its dentist for its whole length, as a patient sees
 * it: a 60-minute "Teeth whitening" booked by clicking at 10:00, then another
 * visitor in another browser context, asking for the same dentist, day and
 * treatment, is offered none of the starts whose hour would meet it. The
 * slots are found by their role and accessible name (the time as the widget
 * writes it in the page's language), not by their styling.
 */

/** A slot button's accessible name for an HH:MM start: "10:15" or "10:15 AM", as the page's language writes it. */
const timeName = (time: string) => new RegExp(`^0?${Number(time.slice(0, 2))}:${time.slice(3)}(\\s|$)`);

describe('a booked appointment holds its dentist for its whole length', () => {
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

  async function freshPage(): Promise<Page> {
    const context = await newContext(browser);
    contexts.push(context);
    const page = await context.newPage();
    await openDemo(page, `${stack.bff.baseUrl}/`);
    return page;
  }

  /** The enabled buttons named for the start: 1 while it is offered as free, 0 once it is not. */
  const offered = (page: Page, time: string) => widget(page).form.getByRole('button', { name: timeName(time), disabled: false }).count();

  it('offers the second visitor none of the starts a 60-minute booking of the first meets', async () => {
    const date = weekdayAhead(6);
    const first = await freshPage();
    const steps = bookingSteps(first);
    await steps.chooseTreatment('Teeth whitening');
    await steps.chooseDentist('Dr James Chen');
    await steps.pickDay(date);
    await widget(first).form.getByRole('button', { name: timeName('10:00') }).click();
    await steps.fillDetails('Overlap Olive', '+44 7700 900321');
    await steps.book();
    expect(await waitForReference(first)).not.toBe('');
    const [row] = await stack.server.db.selectFrom('appointments').selectAll().where('patient_name', '=', 'Overlap Olive').execute();
    expect(row).toMatchObject({ appointment_date: date, appointment_time: '10:00', end_time: '11:00', status: 'Scheduled' });

    const second = await freshPage();
    const again = bookingSteps(second);
    await again.chooseTreatment('Teeth whitening');
    await again.chooseDentist('Dr James Chen');
    await again.pickDay(date);
    // The answer is in once 11:00, right after the booking, is offered.
    await widget(second).form.getByRole('button', { name: timeName('11:00'), disabled: false }).waitFor();

    const starts = ['09:00', '09:15', '09:45', '10:00', '10:15', '10:30', '10:45', '11:00'];
    const offers = await Promise.all(starts.map((time) => offered(second, time)));

    // 09:00-10:00 ends as the booking starts and 11:00 follows it; every start between would share the dentist's hour.
    expect(Object.fromEntries(starts.map((time, i) => [time, offers[i]]))).toEqual({
      '09:00': 1,
      '09:15': 0,
      '09:45': 0,
      '10:00': 0,
      '10:15': 0,
      '10:30': 0,
      '10:45': 0,
      '11:00': 1,
    });
  });
});
