import { describe, expect, it } from 'vitest';
import { composePatientMail } from '../../../bff/patient-mail/patient-mail-compose.js';
import type { PatientMailEvent } from '../../../bff/patient-mail/patient-mail-event.js';

/**
 * The e-mail that goes to the patient (composePatientMail): its address, the
 * unsubscribe headers, and the calendar file attached as what it is.
 */

const NOW = new Date('2026-11-28T10:15:00.000Z');
const RECIPIENT = { email: 'jane.patient@example.com', language: 'fr' as const, unsubscribeToken: 'tok_0123456789abcdefABCDEF' };

const event = (type: PatientMailEvent['type']): PatientMailEvent => ({
  type,
  occurred_at: '2026-11-28T10:15:00.000Z',
  site_id: 'default',
  reference: 'K7QF-2M9X-PA4T-Z3RW-8HNC',
  appointment_id: 1042,
  language: 'fr',
  appointment: { date: '2026-12-03', time: '09:30', time_zone: 'Europe/Paris', minutes: 30, dentist_name: 'Dr Anne Weber', treatment_name: 'Contrôle' },
  clinic: { name: 'Cabinet du Sourire', address: '1 rue de la Paix, 75002 Paris', phone: '+33 1 23 45 67 89' },
  manage_page_url: 'https://sourire.example/rendez-vous',
});

const compose = composePatientMail('https://book.sourire.example/');

describe('the patient e-mail as it goes (composePatientMail)', () => {
  it('goes to the kept address, with the one-click unsubscribe headers of its token', () => {
    const mail = compose(event('patient.confirmation'), RECIPIENT, NOW);

    expect(mail.to).toBe(RECIPIENT.email);
    expect(mail.headers).toEqual({
      'List-Unsubscribe': `<https://book.sourire.example/mail/unsubscribe/${RECIPIENT.unsubscribeToken}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });

  it('attaches the confirmation’s calendar file with a method parameter only as its METHOD line says (RFC 5545, 3.7.2)', () => {
    const [file, ...others] = compose(event('patient.confirmation'), RECIPIENT, NOW).attachments ?? [];

    expect(others).toEqual([]);
    expect(file?.filename).toBe('appointment.ics');
    expect(file?.contentType).toMatch(/^text\/calendar; charset=utf-8\b/);
    // "If either the METHOD property or the Content-Type method parameter is specified, then the other MUST also be."
    const parameter = /;\s*method=([^;\s]+)/i.exec(file!.contentType)?.[1]?.toUpperCase();
    const property = /^METHOD:(.+)$/m.exec(file!.content.replace(/\r\n[ \t]/g, ''))?.[1]?.trim();
    expect(parameter).toBe(property);
  });

  it('attaches nothing to the reminder', () => {
    expect(compose(event('patient.reminder'), RECIPIENT, NOW).attachments).toBeUndefined();
  });
});
