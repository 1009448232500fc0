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

/** A YYYY-MM-DD date as the visitor reads dates, without shifting it through a time zone. */
export function formatDate(date: string, lang: string): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(year, month - 1, day)));
}

/** Today's date as the visitor's device sees it, YYYY-MM-DD. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
