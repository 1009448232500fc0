import type { MailWords } from './mail-words.js';

/** The clinic's e-mails in Spanish. */
export const es: MailWords = {
  locale: 'es-ES',
  dir: 'ltr',
  colon: ': ',
  subject: {
    'booking.created': (when, reference) => `Nueva reserva: ${when}, ${reference}`,
    'booking.cancel_requested': (when, reference) => `Solicitud de cancelación: ${when}, ${reference}`,
    'booking.move_requested': (when, reference) => `Solicitud de cambio de cita: ${when}, ${reference}`,
  },
  heading: {
    'booking.created': 'Nueva reserva en línea',
    'booking.cancel_requested': 'Solicitud de cancelación de una cita',
    'booking.move_requested': 'Solicitud de cambio de cita',
  },
  lead: {
    'booking.created':
      'Esta cita se reservó a través de su sitio web y ya figura en el sistema de la clínica.',
    'booking.cancel_requested':
      'Un paciente ha pedido en su sitio web cancelar esta cita. Todavía no está cancelada: cancélela en el sistema de la clínica y, si hace falta, avise al paciente.',
    'booking.move_requested':
      'Un paciente ha pedido en su sitio web cambiar esta cita. Todavía no se ha modificado nada: acuerde una nueva hora con el paciente y después cambie la cita en el sistema de la clínica.',
  },
  labels: {
    reference: 'Referencia de la reserva',
    appointmentId: 'ID de la cita (sistema de la clínica)',
    date: 'Fecha',
    time: 'Hora',
    dentist: 'Dentista',
    treatment: 'Tratamiento',
    patient: 'Paciente',
    phone: 'Teléfono',
    preferredStarts: 'Nuevas horas deseadas, por orden de preferencia',
    message: 'Mensaje del paciente',
  },
  notGiven: 'no indicado',
  sentBy: (clinicName) => (clinicName ? `Enviado automáticamente por el sistema de citas en línea de ${clinicName}.` : 'Enviado automáticamente por su sistema de citas en línea.'),
};
