import type { PatientWords } from './patient-words.js';

/** The patient's e-mails and unsubscribe page in English. */
export const en: PatientWords = {
  locale: 'en-GB',
  dir: 'ltr',
  colon: ': ',
  subject: {
    'patient.confirmation': (date, time, clinic) => `Your appointment on ${date} at ${time} is booked${clinic ? ` (${clinic})` : ''}`,
    'patient.reminder': (date, time, clinic) => `Reminder: your appointment on ${date} at ${time}${clinic ? ` (${clinic})` : ''}`,
  },
  heading: {
    'patient.confirmation': () => 'Your appointment is booked',
    'patient.reminder': (date, time) => `Reminder: your appointment on ${date} at ${time}`,
  },
  lead: {
    'patient.confirmation': (clinic) =>
      clinic ? `Thank you for booking with ${clinic}. Here are the details of your appointment.` : 'Thank you for booking. Here are the details of your appointment.',
    'patient.reminder': () => 'We look forward to seeing you. If you cannot come, please cancel in good time so that someone else can have the appointment.',
  },
  labels: {
    date: 'Date',
    time: 'Time',
    treatment: 'Treatment',
    dentist: 'Dentist',
    clinic: 'Clinic',
    address: 'Address',
    phone: 'Phone',
    reference: 'Booking reference',
  },
  timeInZone: (time, zone) => `${time} (${zone})`,
  manage: 'Manage or cancel your booking',
  changeByPhone: (phone) => `To change or cancel, call the clinic: ${phone}`,
  calendarManage: 'Manage booking',
  calendarAttached: 'To add the appointment to your calendar, open the attached file.',
  why: (clinic) =>
    `You are getting this e-mail because you asked for a confirmation and a reminder by e-mail when you booked online${clinic ? ` with ${clinic}` : ''}. We send nothing else.`,
  stop: 'Stop reminders',
  page: {
    askTitle: 'Stop e-mails about this booking?',
    askLead: 'You will get no more confirmations or reminders about this appointment. Your appointment stays booked.',
    button: 'Stop e-mails',
    doneTitle: 'You will get no more e-mails about this booking',
    doneLead: 'Your appointment stays booked. To change or cancel it, use the link in your confirmation or call the clinic.',
    goneTitle: 'No e-mails to stop',
    goneLead: 'No more e-mails are sent through this link: it may have been used already, or the appointment is over. This page changes nothing about your appointment.',
    failedTitle: 'That did not work',
    failedLead: 'Nothing was changed. Please try again in a few minutes.',
  },
};
