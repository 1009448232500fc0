import type { MailWords } from './mail-words.js';

/** The clinic's e-mails in French. */
export const fr: MailWords = {
  locale: 'fr-FR',
  dir: 'ltr',
  colon: '\u00a0: ',
  subject: {
    'booking.created': (when, reference) => `Nouvelle réservation\u00a0: ${when}, ${reference}`,
    'booking.cancel_requested': (when, reference) => `Demande d’annulation\u00a0: ${when}, ${reference}`,
    'booking.move_requested': (when, reference) => `Demande de changement d’horaire\u00a0: ${when}, ${reference}`,
  },
  heading: {
    'booking.created': 'Nouvelle réservation en ligne',
    'booking.cancel_requested': 'Demande d’annulation d’un rendez-vous',
    'booking.move_requested': 'Demande de changement d’horaire',
  },
  lead: {
    'booking.created':
      'Ce rendez-vous a été pris sur votre site web et figure déjà dans votre logiciel de cabinet.',
    'booking.cancel_requested':
      'Un patient a demandé sur votre site web l’annulation de ce rendez-vous. Il n’est pas encore annulé\u00a0: merci de l’annuler dans votre logiciel de cabinet et de prévenir le patient si nécessaire.',
    'booking.move_requested':
      'Un patient a demandé sur votre site web à déplacer ce rendez-vous. Rien n’est encore modifié\u00a0: merci de convenir d’un nouvel horaire avec le patient, puis de modifier le rendez-vous dans votre logiciel de cabinet.',
  },
  labels: {
    reference: 'Référence de réservation',
    appointmentId: 'N° du rendez-vous (logiciel du cabinet)',
    date: 'Date',
    time: 'Heure',
    dentist: 'Dentiste',
    treatment: 'Soin',
    patient: 'Patient',
    phone: 'Téléphone',
    preferredStarts: 'Nouveaux horaires souhaités, par ordre de préférence',
    message: 'Message du patient',
  },
  notGiven: 'non précisé',
  sentBy: (clinicName) => (clinicName ? `Envoyé automatiquement par la prise de rendez-vous en ligne de ${clinicName}.` : 'Envoyé automatiquement par votre prise de rendez-vous en ligne.'),
};
