import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { disableHttpCache, launchBrowser, newContext, openDemo, waitForReference, widget } from './support/browser.js';
import { bookingSteps } from './support/booking-steps.js';
import { startE2eStack, weekdayAhead, type E2eStack } from './support/stack.js';
import { FakeClock } from '../support/fake-clock.js';

const HERO = 'Gentle, modern dentistry in the heart of London';

/** How many times the BFF answered GET `path` with this status, from its request log. */
function bffAnswers(stack: E2eStack, path: string, status: number): number {
  return stack.bff.logs
    .map((line) => JSON.parse(line) as { req?: { method?: string; path?: string }; res?: { statusCode?: number } })
    .filter((entry) => entry.req?.method === 'GET' && entry.req.path === path && entry.res?.statusCode === status).length;
}

async function serverAnswers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

describe('while the reference server is down', () => {
  /** The BFF's clock, which the test moves past its cache's TTL. */
  const bffClock = new FakeClock(Date.now());
  let stack: E2eStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    stack = await startE2eStack({ cache: { ttlMs: 1_000, maxStaleMs: 3600_000, maxBytes: 1024 * 1024 } }, bffClock);
    browser = await launchBrowser();
    context = await newContext(browser);
    page = await context.newPage();
    // Every /api request must reach the BFF, never Chromium's HTTP cache.
    await disableHttpCache(page);
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await stack?.close();
  });

  it('serves the last good content copy when the page is reloaded', async () => {
    await openDemo(page, `${stack.bff.baseUrl}/`);
    expect(await widget(page).el.locator('[part="hero"] h2').textContent()).toBe(HERO);
    // Every picture the page asked for has arrived (and so is in the BFF's store) before its host goes down.
    await page.waitForLoadState('networkidle');

    await stack.stopServer();
    expect(await serverAnswers(`${stack.server.baseUrl}/healthz`)).toBe(false);
    // Past the BFF's 1 s TTL, so every copy is stale and the BFF has to try upstream first.
    bffClock.advance(1_500);
    const servedBefore = bffAnswers(stack, '/api/content', 200);
    const apiStatuses: number[] = [];
    const pictureStatuses: number[] = [];
    page.on('response', (response) => {
      if (response.url().startsWith(`${stack.bff.api}/pictures/`)) pictureStatuses.push(response.status());
      else if (response.url().startsWith(`${stack.bff.api}/`)) apiStatuses.push(response.status());
    });

    await page.reload();
    await widget(page).form.waitFor();
    expect(await widget(page).el.locator('[part="hero"] h2').textContent()).toBe(HERO);
    expect(await widget(page).el.locator('[part="treatment"]').count()).toBe(6);
    // The widget's one content request (GET /api/content), served from the stale copies.
    expect(apiStatuses).toEqual([200]);
    expect(bffAnswers(stack, '/api/content', 200)).toBe(servedBefore + 1);
    // The clinic's pictures too, from the copies the BFF fetched before its host went down.
    expect(pictureStatuses.length).toBeGreaterThan(0);
    expect(pictureStatuses.every((status) => status === 200), `picture answers ${pictureStatuses.join(', ')}`).toBe(true);
  });

  it('shows a clear error for a booking, keeps every typed value, and books exactly once when retried after the server is back', async () => {
    await stack.stopServer(); // already stopped by the test above; a no-op then
    expect(await serverAnswers(`${stack.server.baseUrl}/healthz`)).toBe(false);
    const w = widget(page);
    await w.form.waitFor();
    const typed = {
      patient_name: 'Outage Olivia',
      patient_phone: '+44 7700 900789',
      appointment_date: weekdayAhead(5),
      appointment_time: '14:15',
      address: '1 Retry Road, London',
      note: 'Booked while the clinic system was down.',
    };
    const steps = bookingSteps(page);
    await steps.chooseTreatment('Clear aligners consultation');
    await steps.chooseDentist('Dr Sofia Rossi');
    await steps.pickDay(typed.appointment_date);
    await steps.pickTime(typed.appointment_time);
    for (const id of ['address', 'note'] as const) await w.field(id).fill(typed[id]);
    await steps.fillDetails(typed.patient_name, typed.patient_phone);

    const bookings: Request[] = [];
    page.on('request', (request) => {
      if (request.url() === `${stack.bff.api}/appointments/book`) bookings.push(request);
    });

    const submit = w.form.locator('[part="submit"]');
    await submit.click();
    await w.failure.waitFor();
    expect((await w.failure.textContent())?.trim()).toBe(
      'We could not reach the clinic. Check your connection and try again; your details are kept.',
    );
    expect(await w.reference.count()).toBe(0);
    // Still on the review step, with every entry kept.
    const review = ((await w.form.textContent()) ?? '').replace(/\s+/g, ' ');
    for (const value of [typed.patient_name, typed.patient_phone, typed.address, typed.note, 'Dr Sofia Rossi', 'Clear aligners consultation']) {
      expect(review).toContain(value);
    }

    await stack.restartServer();
    expect(await serverAnswers(`${stack.server.baseUrl}/healthz`)).toBe(true);
    const chosen = {
      doctor_id: (await stack.server.db.selectFrom('dentists').select('doctor_id').where('doctor_name', '=', 'Dr Sofia Rossi').executeTakeFirstOrThrow()).doctor_id,
      treatment_id: (
        await stack.server.db.selectFrom('treatments').select('treatment_id').where('treatment_name', '=', 'Clear aligners consultation').executeTakeFirstOrThrow()
      ).treatment_id,
    };
    await submit.click();
    const reference = await waitForReference(page);
    expect(reference).not.toBe('');

    const rows = await stack.server.db.selectFrom('appointments').selectAll().where('patient_name', '=', typed.patient_name).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      patient_phone: typed.patient_phone,
      appointment_date: typed.appointment_date,
      appointment_time: typed.appointment_time,
      doctor_id: chosen.doctor_id,
      treatment_id: chosen.treatment_id,
      address: typed.address,
      note: typed.note,
    });
    expect(bookings).toHaveLength(2);
    const keys = await Promise.all(bookings.map(async (request) => (await request.allHeaders())['idempotency-key']));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
  });
});
