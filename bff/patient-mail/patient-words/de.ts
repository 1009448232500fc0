import type { PatientWords } from './patient-words.js';

/** The patient's e-mails and unsubscribe page in German. */
export const de: PatientWords = {
  locale: 'de-DE',
  dir: 'ltr',
  colon: ': ',
  subject: {
    'patient.confirmation': (date, time, clinic) => `Ihr Termin am ${date} um ${time} Uhr ist gebucht${clinic ? ` (${clinic})` : ''}`,
    'patient.reminder': (date, time, clinic) => `Erinnerung: Ihr Termin am ${date} um ${time} Uhr${clinic ? ` (${clinic})` : ''}`,
  },
  heading: {
    'patient.confirmation': () => 'Ihr Termin ist gebucht',
    'patient.reminder': (date, time) => `Erinnerung: Ihr Termin am ${date} um ${time} Uhr`,
  },
  lead: {
    'patient.confirmation': (clinic) =>
      clinic ? `Vielen Dank für Ihre Buchung bei ${clinic}. Hier sind die Angaben zu Ihrem Termin.` : 'Vielen Dank für Ihre Buchung. Hier sind die Angaben zu Ihrem Termin.',
    'patient.reminder': () =>
      'Wir freuen uns auf Ihren Besuch. Falls Sie nicht kommen können, sagen Sie den Termin bitte rechtzeitig ab, damit ihn jemand anderes bekommen kann.',
  },
  labels: {
    date: 'Datum',
    time: 'Uhrzeit',
    treatment: 'Behandlung',
    dentist: 'Zahnarzt/Zahnärztin',
    clinic: 'Praxis',
    address: 'Adresse',
    phone: 'Telefon',
    reference: 'Buchungsnummer',
  },
  timeInZone: (time, zone) => `${time} Uhr (${zone})`,
  manage: 'Buchung verwalten oder absagen',
  changeByPhone: (phone) => `Zum Ändern oder Absagen rufen Sie die Praxis an: ${phone}`,
  calendarManage: 'Buchung verwalten',
  calendarAttached: 'Mit der angehängten Datei können Sie den Termin in Ihren Kalender übernehmen.',
  why: (clinic) =>
    `Sie erhalten diese E-Mail, weil Sie bei Ihrer Online-Buchung${clinic ? ` bei ${clinic}` : ''} eine Bestätigung und eine Erinnerung per E-Mail gewünscht haben. Weitere E-Mails senden wir nicht.`,
  stop: 'Keine Erinnerungen mehr',
  page: {
    askTitle: 'Keine E-Mails mehr zu dieser Buchung?',
    askLead: 'Sie erhalten dann keine Bestätigungen oder Erinnerungen zu diesem Termin mehr. Ihr Termin bleibt bestehen.',
    button: 'E-Mails abbestellen',
    doneTitle: 'Sie erhalten keine E-Mails mehr zu dieser Buchung',
    doneLead: 'Ihr Termin bleibt bestehen. Zum Ändern oder Absagen nutzen Sie den Link in Ihrer Bestätigung oder rufen Sie die Praxis an.',
    goneTitle: 'Keine E-Mails abzubestellen',
    goneLead: 'Über diesen Link werden keine E-Mails mehr gesendet: Er wurde vielleicht schon benutzt, oder der Termin ist vorbei. Diese Seite ändert nichts an Ihrem Termin.',
    failedTitle: 'Das hat nicht geklappt',
    failedLead: 'Es wurde nichts geändert. Bitte versuchen Sie es in ein paar Minuten noch einmal.',
  },
};
