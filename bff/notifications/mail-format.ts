/**
 * What every e-mail the BFF writes shares, the clinic's (clinic-mail.ts) and
 * the patient's (bff/patient-mail/): dates and times written in the mail's
 * language, every value escaped, and one plain HTML frame (no remote images,
 * no scripts, inline styles only, as mail clients want them), right to left
 * for Arabic with each value in a <bdi> so a Latin name or a number keeps its
 * own direction.
 */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or attribute value: nothing in it can open a tag, an entity or an attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

export type MailDirection = 'ltr' | 'rtl';

/** The side a line starts on. */
export const startSide = (dir: MailDirection): 'left' | 'right' => (dir === 'rtl' ? 'right' : 'left');

/** Label and value lines of the plain text part. */
export const factsText = (facts: readonly (readonly [string, string])[], colon: string): string =>
  facts.map(([label, value]) => `${label}${colon}${value}`).join('\n');

/**
 * Label and value rows, escaped, each value in a <bdi>. A value without a
 * letter (a phone number, an id) is left to right: a <bdi> takes its
 * direction from its first letter, and without one an Arabic mail would move
 * a phone's leading + to its end.
 */
export function factsHtml(facts: readonly (readonly [string, string])[], dir: MailDirection): string {
  const cellPadding = dir === 'rtl' ? '4px 0 4px 16px' : '4px 16px 4px 0';
  const rows = facts
    .map(
      ([label, value]) =>
        `<tr><th scope="row" style="text-align:${startSide(dir)};vertical-align:top;padding:${cellPadding};font-weight:bold">${escapeHtml(label)}</th>` +
        `<td style="vertical-align:top;padding:4px 0"><bdi${/\p{L}/u.test(value) ? '' : ' dir="ltr"'}>${escapeHtml(value)}</bdi></td></tr>`,
    )
    .join('\n');
  return `<table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse:collapse">
${rows}
</table>`;
}

/** The first line of a mail's body. */
export const headingHtml = (text: string): string => `<h1 style="font-size:20px;margin:0 0 8px">${escapeHtml(text)}</h1>`;

/** The sentence under the heading. */
export const leadHtml = (text: string): string => `<p style="margin:0 0 16px">${escapeHtml(text)}</p>`;

/** The small print at the end: who sent it, and why; `html` is markup already escaped. */
export const footerHtml = (html: string): string => `<p style="margin:24px 0 0;font-size:13px;color:#555555">${html}</p>`;

/** The whole document around `body` (blocks of markup, escaped already), in `language` and its direction. */
export function mailHtml({ language, dir, title }: { language: string; dir: MailDirection; title: string }, body: readonly string[]): string {
  return `<!DOCTYPE html>
<html lang="${escapeHtml(language)}" dir="${dir}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:16px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1a1a1a;background:#ffffff;text-align:${startSide(dir)}">
${body.join('\n')}
</body>
</html>
`;
}

/**
 * Dates and times of the clinic's own zone, written in the mail's language.
 * They are wall-clock values (`2026-12-03`, `09:30`), so they are formatted
 * as UTC, which moves nothing; a malformed one is shown as it came.
 */
export function mailFormatters(locale: string): MailFormatters {
  let made = FORMATTERS.get(locale);
  if (!made) FORMATTERS.set(locale, (made = makeFormatters(locale)));
  return made;
}

/**
 * Each language's formatters, made once: an Intl.DateTimeFormat costs more to
 * make than to use (four a mail were 3.5 % of a BFF's CPU delivering a burst,
 * bench:outbox's profile). Six languages at most.
 */
const FORMATTERS = new Map<string, MailFormatters>();
export type MailFormatters = ReturnType<typeof makeFormatters>;

function makeFormatters(locale: string) {
  const shortDate = new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
  const longDate = new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' });
  const clock = new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone: 'UTC' });
  const dateAndTime = new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' });
  const day = (date: string) => {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
    return match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : undefined;
  };
  const moment = (time: string) => {
    const match = /^(\d{2}):(\d{2})(?::\d{2})?$/.exec(time);
    return match ? new Date(Date.UTC(1970, 0, 1, Number(match[1]), Number(match[2]))) : undefined;
  };
  const using = (parse: (value: string) => Date | undefined, format: Intl.DateTimeFormat) => (value: string) => {
    const parsed = parse(value);
    return parsed && !Number.isNaN(parsed.getTime()) ? format.format(parsed) : value;
  };
  const at = (date: string, time: string) => {
    const [when, hour] = [day(date), moment(time)];
    return when && hour ? new Date(when.getTime() + hour.getTime()) : undefined;
  };
  return {
    shortDate: using(day, shortDate),
    longDate: using(day, longDate),
    time: using(moment, clock),
    /** A wished start: its date and time in one phrase, joined as the language joins them. */
    start: (date: string, time: string) => {
      const parsed = at(date, time);
      return parsed && !Number.isNaN(parsed.getTime()) ? dateAndTime.format(parsed) : `${date} ${time}`;
    },
  };
}
