import type { MailWords } from './mail-words.js';

/** The clinic's e-mails in Arabic. */
export const ar: MailWords = {
  locale: 'ar-u-nu-latn',
  dir: 'rtl',
  colon: ': ',
  subject: {
    'booking.created': (when, reference) => `حجز جديد: ${when}، ${reference}`,
    'booking.cancel_requested': (when, reference) => `طلب إلغاء: ${when}، ${reference}`,
    'booking.move_requested': (when, reference) => `طلب تغيير موعد: ${when}، ${reference}`,
  },
  heading: {
    'booking.created': 'حجز جديد عبر الإنترنت',
    'booking.cancel_requested': 'طلب إلغاء موعد',
    'booking.move_requested': 'طلب تغيير موعد',
  },
  lead: {
    'booking.created':
      'حُجز هذا الموعد عبر موقعكم الإلكتروني، وهو مسجَّل بالفعل في نظام العيادة.',
    'booking.cancel_requested':
      'طلب أحد المرضى عبر موقعكم الإلكتروني إلغاء هذا الموعد. لم يُلغَ الموعد بعد: يُرجى إلغاؤه في نظام العيادة وإبلاغ المريض عند الحاجة.',
    'booking.move_requested':
      'طلب أحد المرضى عبر موقعكم الإلكتروني تغيير هذا الموعد. لم يتغيّر شيء بعد: يُرجى الاتفاق مع المريض على موعد جديد، ثم تعديل الموعد في نظام العيادة.',
  },
  labels: {
    reference: 'رقم الحجز',
    appointmentId: 'رقم الموعد (نظام العيادة)',
    date: 'التاريخ',
    time: 'الوقت',
    dentist: 'طبيب الأسنان',
    treatment: 'العلاج',
    patient: 'المريض',
    phone: 'الهاتف',
    preferredStarts: 'المواعيد الجديدة المفضّلة، حسب الأولوية',
    message: 'رسالة المريض',
  },
  notGiven: 'غير محدد',
  sentBy: (clinicName) => (clinicName ? `أُرسلت هذه الرسالة تلقائيًا من نظام الحجز الإلكتروني لدى ${clinicName}.` : 'أُرسلت هذه الرسالة تلقائيًا من نظام الحجز الإلكتروني لديكم.'),
};
