import type { Page } from 'playwright-core';
import { widget } from './browser.js';

/**
 * Drives the widget's booking steps with the mouse, as a visitor clicks:
 * the treatment and the dentist by their buttons, the day in the calendar
 * (moving on a month with "Next month" when needed), the time by its slot.
 */
export function bookingSteps(page: Page) {
  const { form } = widget(page);
  const choice = (name: string) => form.locator('.choices button', { hasText: name });
  const day = (date: string) => form.locator(`[role="grid"] [data-date="${date}"]`);
  const slot = (time: string) => form.locator(`.slots [data-time="${time}"]`).first();
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
      for (let i = 0; i < 13 && (await day(date).count()) === 0; i++) await form.locator('button[aria-label="Next month"]').click();
      await day(date).click();
    },
    /** After pickDay, on the same step: waits for the day's times (the availability answer) and clicks the one at `time`. */
    async pickTime(time: string): Promise<void> {
      await slot(time).click();
    },
    async fillDetails(name: string, phone: string): Promise<void> {
      await form.locator('#patient_name').fill(name);
      await form.locator('#patient_phone').fill(phone);
      await form.locator('button[type="submit"]', { hasText: 'Continue' }).click();
    },
    async book(): Promise<void> {
      await form.locator('[part="submit"]').click();
    },
  };
}
