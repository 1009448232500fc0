import { afterEach, describe, expect, it, vi } from 'vitest';
import { routeByEvent } from '../../../bff/outbox/event-router.js';
import type { OutboxMessage } from '../../../bff/outbox/outbox-message.js';
import { patientDeliverer, STATUS_CHECK_DEADLINE_MS } from '../../../bff/patient-mail/patient-deliverer.js';
import type { PatientMailEvent } from '../../../bff/patient-mail/patient-mail-event.js';
import { OUTBOX_LEASE_SECONDS_BOUNDS } from '../../../bff/notifications/notification-settings.js';
import { MAIL_TRY_DEADLINE_MS } from '../../../bff/notifications/mail-sender.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';

/**
 * The patient deliverer's bounds, which the end-to-end tests (reminders.test.ts) cannot reach in real
 * time: a status lookup that never answers, and an instance that cannot send patients' mail.
 */

const reminder: OutboxMessage<PatientMailEvent> = {
  id: 'msg_test',
  channel: 'email',
  attempts: 1,
  createdAt: Date.parse(TEST_NOW),
  event: {
    type: 'patient.reminder',
    occurred_at: TEST_NOW,
    site_id: 'default',
    reference: 'K7QF-2M9X-PA4T-Z3RW-8HNC',
    appointment_id: 7,
    language: 'en',
    appointment: { date: '2026-11-25', time: '10:00', time_zone: 'Europe/London', minutes: 30, dentist_name: null, treatment_name: null },
    clinic: { name: 'Test Dental', address: null, phone: null },
    manage_page_url: null,
  },
};

afterEach(() => {
  vi.useRealTimers();
});

describe('patientDeliverer', () => {
  it('fails a try whose status lookup has not answered within its deadline, so the try stays inside the shortest lease', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const sent: unknown[] = [];
    const deliverer = patientDeliverer({
      recipientOf: async () => ({ email: 'jane@example.com', language: 'en', unsubscribeToken: 't'.repeat(43) }),
      notificationsOf: async () => ({ language: 'en', changeRules: { minNoticeHours: 24, moveAllowed: true } }),
      statusOf: () => new Promise(() => undefined),
      compose: () => ({ to: 'jane@example.com', subject: 's', text: 't', html: 'h' }),
      transport: { send: async (...args) => (sent.push(args), { delivered: true }) },
      clock: new FakeClock(TEST_NOW),
    });
    const result = deliverer.deliver(reminder);
    await vi.advanceTimersByTimeAsync(STATUS_CHECK_DEADLINE_MS);
    expect(await result).toEqual({ delivered: false, permanent: false, error: 'status lookup timeout' });
    expect(sent).toEqual([]);
    expect(OUTBOX_LEASE_SECONDS_BOUNDS.min * 1000).toBeGreaterThan(STATUS_CHECK_DEADLINE_MS + MAIL_TRY_DEADLINE_MS);
  });
});

describe('routeByEvent', () => {
  it("fails (does not kill) a patient's message on an instance that cannot send patients' mail, for another to send", async () => {
    const clinic = { deliver: async () => ({ delivered: true as const }) };
    const result = await routeByEvent(clinic, undefined).deliver(reminder);
    expect(result).toMatchObject({ delivered: false, permanent: false });
  });
});
