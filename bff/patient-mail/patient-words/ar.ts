import type { PatientWords } from './patient-words.js';

/** The patient's e-mails and unsubscribe page in Arabic (Latin digits, as the widget and the clinic's mail write them). */
export const ar: PatientWords = {
  locale: 'ar-u-nu-latn',
  dir: 'rtl',
  colon: ': ',
  subject: {
    'patient.confirmation': (date, time, clinic) => `تم حجز موعدك يوم ${date} الساعة ${time}${clinic ? ` (${clinic})` : ''}`,
    'patient.reminder': (date, time, clinic) => `تذكير: موعدك يوم ${date} الساعة ${time}${clinic ? ` (${clinic})` : ''}`,
  },
  heading: {
    'patient.confirmation': () => 'تم حجز موعدك',
    'patient.reminder': (date, time) => `تذكير: موعدك يوم ${date} الساعة ${time}`,
  },
  lead: {
    'patient.confirmation': (clinic) => (clinic ? `شكرًا لحجزك لدى ${clinic}. إليك تفاصيل موعدك.` : 'شكرًا لحجزك. إليك تفاصيل موعدك.'),
    'patient.reminder': () => 'نتطلع إلى رؤيتك. إذا لم تتمكن من الحضور، يُرجى إلغاء الموعد مبكرًا ليستفيد منه شخص آخر.',
  },
  labels: {
    date: 'التاريخ',
    time: 'الوقت',
    treatment: 'العلاج',
    dentist: 'الطبيب',
    clinic: 'العيادة',
    address: 'العنوان',
    phone: 'الهاتف',
    reference: 'رقم الحجز',
  },
  timeInZone: (time, zone) => `${time} (${zone})`,
  manage: 'إدارة حجزك أو إلغاؤه',
  changeByPhone: (phone) => `للتغيير أو الإلغاء، اتصل بالعيادة: ${phone}`,
  calendarManage: 'إدارة الحجز',
  calendarAttached: 'لإضافة الموعد إلى تقويمك، افتح الملف المرفق.',
  why: (clinic) =>
    `تصلك هذه الرسالة لأنك طلبت تأكيدًا وتذكيرًا بالبريد الإلكتروني عند الحجز عبر الإنترنت${clinic ? ` لدى ${clinic}` : ''}. لن نرسل إليك شيئًا آخر.`,
  stop: 'إيقاف التذكيرات',
  page: {
    askTitle: 'هل تريد إيقاف الرسائل المتعلقة بهذا الحجز؟',
    askLead: 'لن تصلك بعد الآن أي تأكيدات أو تذكيرات بشأن هذا الموعد. يبقى موعدك محجوزًا.',
    button: 'إيقاف الرسائل',
    doneTitle: 'لن تصلك رسائل أخرى بشأن هذا الحجز',
    doneLead: 'يبقى موعدك محجوزًا. لتغييره أو إلغائه، استخدم الرابط في رسالة التأكيد أو اتصل بالعيادة.',
    goneTitle: 'لا توجد رسائل لإيقافها',
    goneLead: 'لم تعد تُرسل أي رسائل عبر هذا الرابط: ربما استُخدم من قبل، أو انتهى الموعد. لا تغيّر هذه الصفحة شيئًا في موعدك.',
    failedTitle: 'لم تنجح العملية',
    failedLead: 'لم يتغيّر شيء. يُرجى المحاولة مرة أخرى بعد بضع دقائق.',
  },
};
