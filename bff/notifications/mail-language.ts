/** The languages the clinic's e-mails are written in: the widget's six. */
export const MAIL_LANGUAGES = ['en', 'de', 'fr', 'es', 'nl', 'ar'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];
