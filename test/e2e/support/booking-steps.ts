import type { Page } from 'playwright-core';
import { widget } from './browser.js';

/** The words of the widget's buttons these steps click by name, in the page's language (widget/i18n/). */
export interface StepWords {
  /** The calendar's button to the next month (`nextMonth`). */
  nextMonth: string;
  /** The details step's button on to the review (`next`). */
  next: string;
}

export const ENGLISH_STEPS: StepWords = { nextMonth: 'Next month', next: 'Continue' };

/**
 * The header button of the period (morning, afternoon from 12:00, evening from 17:00) that shows the
 * time at `time` (HH:MM): one period's times show at a time.
 */
export const periodHeader = (time: string): string => `#period-${[12, 17].filter((hour) => Number(time.slice(0, 2)) >= hour).length}`;

/** The day's times once its availability has come: while it loads they show inert (aria-busy), the taken ones not yet known. */
export const LOADED_TIMES = '.times[aria-busy="false"]';

/**
 * Drives the widget's booking steps with the mouse, as a visitor clicks:
 * the treatment and the dentist by their buttons, the day in the calendar
 * (moving on a month with "Next month" when needed), the time by its slot.
 * `words` are the buttons' names in the page's language (English by default).
 */
export function bookingSteps(page: Page, words: StepWords = ENGLISH_STEPS) {
  const { form } = widget(page);
  const choice = (name: string) => form.locator('.choices button', { hasText: name });
  const day = (date: string) => form.locator(`[role="grid"] [data-date="${date}"]`);
  const slot = (time: string) => form.locator(`${LOADED_TIMES} .slots [data-time="${time}"]`).first();
  const next = () => form.locator('button[type="submit"]', { hasText: words.next }).click();
  return {
    choice,
    day,
    slot,
    /** The heading of the step shown ("Step 3 of 5 Date and time"). */
    heading: async () => ((await form.locator('#step-heading').textContent()) ?? '').replace(/\s+/g, ' ').trim(),
    async chooseTreatment(name: string): Promise<void> {
      await choice(name).click();
    },
    async chooseDentist(name: string): Promise<void> {
      await choice(name).click();
    },
    async pickDay(date: string): Promise<void> {
      for (let i = 0; i < 13 && (await day(date).count()) === 0; i++) await form.locator(`button[aria-label="${words.nextMonth}"]`).click();
      await day(date).click();
    },
    /**
     * After pickDay, on the same step: waits for the day's times (the availability answer), opens the
     * period of `time` with its header where another is open, and clicks the time.
     */
    async pickTime(time: string): Promise<void> {
      await form.locator(LOADED_TIMES).waitFor();
      if ((await slot(time).count()) === 0) await form.locator(periodHeader(time)).click();
      await slot(time).click();
    },
    /**
     * Types the name and phone and, given `email`, ticks the box for a confirmation by e-mail (where the
     * site offers it) and types the address; then goes on to the review.
     */
    async fillDetails(name: string, phone: string, email?: string): Promise<void> {
      await form.locator('#patient_name').fill(name);
      await form.locator('#patient_phone').fill(phone);
      if (email !== undefined) {
        await form.locator('#email_consent').check();
        await form.locator('#patient_email').fill(email);
      }
      await next();
    },
    /** The details step's button on to the review. */
    next,
    async book(): Promise<void> {
      await form.locator('[part="submit"]').click();
    },
  };
}
