import { DAY_NAMES, type DayName } from '../contract/rules/days.js';

/** A spec String (Decimal) fee in the clinic's currency, in the visitor's language. */
export function formatFee(decimal: string, currency: string | undefined, lang: string): string {
  const amount = Number(decimal);
  if (!currency || !Number.isFinite(amount)) return decimal;
  try {
    return new Intl.NumberFormat(lang, { style: 'currency', currency }).format(amount);
  } catch {
    return `${decimal} ${currency}`;
  }
}

/** The localised name of an opening_hours day key (Monday -> Montag). */
export function localDayName(day: DayName, lang: string): string {
  // 2024-01-01 was a Monday.
  const date = new Date(Date.UTC(2024, 0, 1 + DAY_NAMES.indexOf(day)));
  return new Intl.DateTimeFormat(lang, { weekday: 'long', timeZone: 'UTC' }).format(date);
}

/** A YYYY-MM-DD date (and HH:MM time) as a UTC instant, so formatting never shifts it through a time zone. */
export const utcOf = (date: string, time = '00:00'): Date => new Date(`${date}T${time}Z`);

/** A YYYY-MM-DD date spelled out as the visitor reads dates, weekday included (or in `style`). */
export function formatDate(date: string, lang: string, style: Intl.DateTimeFormatOptions = { dateStyle: 'full' }): string {
  return new Intl.DateTimeFormat(lang, { ...style, timeZone: 'UTC' }).format(utcOf(date));
}

/** HH:MM clinic times in the language's own clock: 2:30 PM in en, 14:30 in en-GB and de (one formatter for many). */
export function timeFormatter(lang: string): (time: string) => string {
  const clock = new Intl.DateTimeFormat(lang, { timeStyle: 'short', timeZone: 'UTC' });
  return (time) => clock.format(utcOf('2000-01-01', time));
}

/** An HH:MM clinic time in the language's own clock. */
export const formatTime = (time: string, lang: string): string => timeFormatter(lang)(time);

/** Today's date as the visitor's device sees it, YYYY-MM-DD. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
