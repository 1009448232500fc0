import { html, nothing, type TemplateResult } from 'lit';
import { addDays } from '../../contract/rules/clinic-time.js';
import { LIMITS } from '../../contract/rules/limits.js';
import { formatDate, utcOf } from '../format.js';
import type { Translation } from '../i18n/translation.js';

/** What the month grid shows and where a choice goes; dates are YYYY-MM-DD in the clinic's calendar. */
export interface CalendarOptions {
  /** The day with the roving tabindex; its month is the one shown. */
  cursor: string;
  selected: string;
  /** The first and last days that may be reached (today and the end of the booking horizon). */
  first: string;
  last: string;
  lang: string;
  t: Translation;
  /** Why a day cannot be chosen, or undefined when it can. */
  reason: (date: string) => DayReason | undefined;
  pick: (date: string) => void;
  /** The cursor moved; `byKey` when it moved by a key inside the grid, which then keeps focus on it. */
  move: (date: string, byKey: boolean) => void;
}

/**
 * Why a day cannot be chosen: it has passed (or today has no start left), the clinic is closed, no
 * opening is long enough for the treatment, it is beyond the booking horizon, or the BFF counts no
 * open start on it (taken, or inside the clinic's notice).
 */
export type DayReason = 'past' | 'closed' | 'too_short' | 'too_far' | 'full';

/** Each reason in words, rendered once (id `why-<reason>`) and tied to its days with aria-describedby. */
const reasons = (t: Translation): Record<DayReason, string> => ({
  past: t.dayPast,
  closed: t.closed,
  too_short: t.dayTooShort,
  too_far: t.dayTooFar,
  full: t.dayFull,
});

const iso = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The same day of another month, or that month's last day (31 January + 1 month = 28 or 29 February). */
export function addMonths(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return iso(Date.UTC(year, month - 1 + months, Math.min(day, new Date(Date.UTC(year, month + months, 0)).getUTCDate())));
}

/**
 * The first day of the week in the language's region, 0 for Sunday: from
 * Intl.Locale's week info (getWeekInfo(), or the older weekInfo getter);
 * where a browser has neither, Monday (ISO 8601) unless the region is the US.
 */
export function weekStart(lang: string): number {
  type WeekInfo = { firstDay: number };
  const locale = new Intl.Locale(lang) as Intl.Locale & { getWeekInfo?: () => WeekInfo; weekInfo?: WeekInfo };
  return ((locale.getWeekInfo?.() ?? locale.weekInfo)?.firstDay ?? (locale.region === 'US' ? 7 : 1)) % 7;
}

/**
 * Which way the arrow that points along the writing goes: 1 when ArrowRight is the next day or time
 * (left to right), -1 when ArrowLeft is (Arabic's right to left), as the grid is laid out where the key
 * was pressed, whichever of the widget's lang or the page's dir made it so.
 */
export const forwardOf = (event: KeyboardEvent): number => (getComputedStyle(event.currentTarget as Element).direction === 'rtl' ? -1 : 1);

/**
 * The ARIA grid pattern as a month table: a button per day in a gridcell,
 * one tab stop (roving tabindex), arrows by day (flipped right to left) and week, Home and End to the
 * week's start and end, Page Up and Page Down by month. Days that cannot be
 * chosen are muted but stay focusable (aria-disabled) and carry their reason as
 * the accessible description; the others are marked bookable (class `open`).
 */
export function renderCalendar(o: CalendarOptions): TemplateResult {
  const { cursor, lang, t } = o;
  const start = weekStart(lang);
  const column = (date: string) => (utcOf(date).getUTCDay() - start + 7) % 7;
  const monthStart = `${cursor.slice(0, 8)}01`;
  const monthEnd = addDays(addMonths(monthStart, 1), -1);
  // Always six weeks (days of other months left empty), so that moving between months never changes the calendar's height.
  const cells = Array.from({ length: 42 }, (_, i) => addDays(monthStart, i - column(monthStart))).map((day) => (day.startsWith(cursor.slice(0, 8)) ? day : ''));
  const weeks = Array.from({ length: 6 }, (_, i) => cells.slice(i * 7, i * 7 + 7));
  // 2023-01-01 was a Sunday.
  const weekdays = Array.from({ length: 7 }, (_, i) => addDays('2023-01-01', start + i));
  // Short names where they are short (Mon, Mo., lun.); where a language's are whole words (Arabic's), its
  // narrow ones, so seven fit a phone. The full name is each column's accessible name either way.
  const shortNames = weekdays.map((d) => formatDate(d, lang, { weekday: 'short' }));
  const weekdayNames = shortNames.some((name) => name.length > 4) ? weekdays.map((d) => formatDate(d, lang, { weekday: 'narrow' })) : shortNames;
  const clamp = (date: string) => (date < o.first ? o.first : date > o.last ? o.last : date);
  const keys: Record<string, (forward: number) => string> = {
    ArrowLeft: (forward) => addDays(cursor, -forward),
    ArrowRight: (forward) => addDays(cursor, forward),
    ArrowUp: () => addDays(cursor, -7),
    ArrowDown: () => addDays(cursor, 7),
    Home: () => addDays(cursor, -column(cursor)),
    End: () => addDays(cursor, 6 - column(cursor)),
    PageUp: () => addMonths(cursor, -1),
    PageDown: () => addMonths(cursor, 1),
  };
  const onKey = (event: KeyboardEvent) => {
    const next = keys[event.key];
    if (!next) return;
    event.preventDefault();
    o.move(clamp(next(forwardOf(event))), true);
  };
  // An arrow that leads nowhere stays focusable (aria-disabled) and says why, as a muted day does.
  const monthButton = (label: string, months: number, disabled: boolean, text: string, why: string) =>
    html`<button class="button secondary" type="button" aria-label=${label} aria-disabled=${disabled ? 'true' : nothing} aria-describedby=${disabled ? why : nothing}
      @click=${() => disabled || o.move(clamp(addMonths(cursor, months)), false)}>${text}</button>`;
  return html`<div class="calendar"><div class="month">
      ${monthButton(t.prevMonth, -1, monthStart <= o.first, '‹', 'why-first')}
      <h4 id="month" aria-live="polite">${formatDate(monthStart, lang, { month: 'long', year: 'numeric' })}</h4>
      ${monthButton(t.nextMonth, 1, monthEnd >= o.last, '›', 'why-last')}
    </div>
    <table role="grid" aria-labelledby="month" @keydown=${onKey}>
      <thead>
        <tr>${weekdays.map((d, i) => html`<th scope="col" aria-label=${formatDate(d, lang, { weekday: 'long' })}>${weekdayNames[i]}</th>`)}</tr>
      </thead>
      <tbody>
        ${weeks.map((week) => html`<tr>${week.map((day) => {
          if (!day) return html`<td role="gridcell"></td>`;
          const why = o.reason(day);
          return html`<td role="gridcell" aria-selected=${day === o.selected ? 'true' : 'false'}>
            <button class="button secondary day ${why ? '' : 'open'}" type="button" tabindex=${day === cursor ? 0 : -1} data-date=${day} aria-label=${formatDate(day, lang)}
              aria-disabled=${why ? 'true' : nothing} aria-describedby=${why ? `why-${why}` : nothing}
              @click=${() => !why && o.pick(day)}>${Number(day.slice(8))}</button>
          </td>`;
        })}</tr>`)}
      </tbody>
    </table>
    ${Object.entries({ ...reasons(t), first: t.noEarlier, last: t.noLater(LIMITS.bookingHorizonDays) }).map(([why, text]) => html`<span id="why-${why}" hidden>${text}</span>`)}</div>`;
}
