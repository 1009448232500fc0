import type { MailWords } from './mail-words.js';

/** The clinic's e-mails in English. */
export const en: MailWords = {
  locale: 'en-GB',
  dir: 'ltr',
  colon: ': ',
  subject: {
    'booking.created': (when, reference) => `New booking: ${when}, ${reference}`,
    'booking.cancel_requested': (when, reference) => `Cancellation request: ${when}, ${reference}`,
    'booking.move_requested': (when, reference) => `Reschedule request: ${when}, ${reference}`,
  },
  heading: {
    'booking.created': 'New online booking',
    'booking.cancel_requested': 'Request to cancel an appointment',
    'booking.move_requested': 'Request to reschedule an appointment',
  },
  lead: {
    'booking.created':
      'This appointment was booked on your website and is already in your clinic system.',
    'booking.cancel_requested':
      'A patient asked on your website to cancel this appointment. It has not been cancelled yet: please cancel it in your clinic system and let the patient know if needed.',
    'booking.move_requested':
      'A patient asked on your website to move this appointment. Nothing has changed yet: please agree a new time with the patient, then change the appointment in your clinic system.',
  },
  labels: {
    reference: 'Booking reference',
    appointmentId: 'Appointment ID (clinic system)',
    date: 'Date',
    time: 'Time',
    dentist: 'Dentist',
    treatment: 'Treatment',
    patient: 'Patient',
    phone: 'Phone',
    preferredStarts: 'Preferred new times, in order of preference',
    message: 'Message from the patient',
  },
  notGiven: 'not given',
  sentBy: (clinicName) => (clinicName ? `Sent automatically by the online booking of ${clinicName}.` : 'Sent automatically by your online booking.'),
};
