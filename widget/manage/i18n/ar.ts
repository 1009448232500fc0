import type { ManageTranslation } from './translation.js';

/** Counts stay Intl's (Arabic-Indic digits under 'ar'), as in the widget's own Arabic. */
const count = (n: number) => n.toLocaleString('ar');
const hoursText = (n: number) => (n === 1 ? 'ساعة واحدة' : n === 2 ? 'ساعتين' : n <= 10 ? `${count(n)} ساعات` : `${count(n)} ساعة`);
const timesText = (n: number) => (n === 1 ? 'وقتًا واحدًا' : n === 2 ? 'وقتين' : n <= 10 ? `${count(n)} أوقات` : `${count(n)} وقتًا`);

export const ar: ManageTranslation = {
  requestCancel: 'طلب الإلغاء',
  confirmTitle: 'هل تريد إلغاء هذا الموعد؟',
  confirmText: 'سنطلب من العيادة إلغاءه. تعرضه هذه الصفحة ملغى بعد أن تلغيه العيادة.',
  confirmYes: 'نعم، اطلب الإلغاء',
  keep: 'الإبقاء على موعدي',
  requestMove: 'طلب وقت آخر',
  moveHint: (max) => `اختر حتى ${timesText(max)} تناسبك، والأفضل لديك أولًا. ستؤكد العيادة أحدها أو تتصل بك.`,
  yourTimes: 'الأوقات التي تفضّلها',
  noStartYet: 'لا شيء بعد: اختر يومًا ثم وقتًا.',
  remove: (start) => `إزالة ${start}`,
  added: (start, n, max) => `أُضيف ${start} (${count(n)} من ${count(max)}).`,
  removed: (start) => `أُزيل ${start}.`,
  full: (max) => `اخترت ${timesText(max)}. أزل واحدًا لتختار غيره.`,
  message: 'رسالة إلى العيادة',
  send: 'أرسل الطلب',
  sending: 'جارٍ الإرسال…',
  errNoStart: 'يُرجى اختيار وقت واحد على الأقل.',
  cancelRequested: (date) => `طُلب الإلغاء في ${date}`,
  moveRequested: (date) => `طُلب وقت آخر في ${date}`,
  requestedNote: 'ستؤكد العيادة ذلك. حتى ذلك الحين يبقى موعدك كما حُجز.',
  timesAsked: 'الأوقات التي طلبتها:',
  cancelled: 'هذا الموعد ملغى.',
  bookNew: 'احجز موعدًا جديدًا',
  removeFromCalendar: 'أزله من التقويم',
  insideWindow: (hours) => `يمكن طلب التغييرات عبر الإنترنت حتى ${hoursText(hours)} قبل الموعد.`,
  callToChange: 'لإلغائه أو تغييره، يُرجى الاتصال بالعيادة:',
  moveByPhone: 'لنقله إلى وقت آخر، يُرجى الاتصال بالعيادة:',
  closed: {
    in_past: 'لقد مضى هذا الموعد.',
    appointment_completed: 'تمّ هذا الموعد.',
    already_cancelled: 'هذا الموعد ملغى بالفعل.',
  },
  link: 'رابطك إلى هذا الحجز',
  linkHint: 'احتفظ به للعودة إلى هنا. يستطيع كل من لديه هذا الرابط رؤية الحجز وطلب التغييرات.',
  copyLink: 'انسخ الرابط',
  startAt: (date, time) => `${date}، ${time}`,
};
