import { cspHashOf } from '../http/security-headers.js';
import { escapeHtml } from '../notifications/mail-format.js';
import type { MailLanguage } from '../notifications/mail-language.js';
import { PATIENT_WORDS } from './patient-mail-render.js';

/**
 * The unsubscribe page a patient opens from a mail's link, in the language
 * the mail was in: small, no script, no image, nothing from elsewhere. Its
 * one stylesheet is fixed text inline, allowed by its hash in the page's CSP
 * (UNSUBSCRIBE_STYLE_HASH), as the demo page's is; the markup has no style
 * attribute. Logical properties, so an Arabic page (dir="rtl") mirrors by
 * itself.
 *
 * - `ask`: GET of a known token, one button (a form that POSTs what RFC 8058
 *   clients post); a GET changes nothing, as mail scanners follow links;
 * - `done`: after a POST, known or not;
 * - `gone`: GET of a token no row has, whether used already, forgotten a week
 *   after the visit, or never issued: the page cannot tell them apart and
 *   says nothing of which;
 * - `failed`: the database failed; nothing was changed.
 */
export type UnsubscribeView = 'ask' | 'done' | 'gone' | 'failed';

export const UNSUBSCRIBE_CSS = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.5; }
body { margin: 0; padding: 2rem 1rem; background: #f8fafc; color: #0f172a; }
main { max-width: 34rem; margin: 0 auto; padding: 1.5rem; background: #fff; border-radius: 0.5rem; }
h1 { font-size: 1.375rem; margin: 0 0 0.75rem; }
p { margin: 0 0 1rem; }
button { font: inherit; font-weight: 600; padding: 0.625rem 1.25rem; border: 0; border-radius: 0.375rem; background: #134e4a; color: #fff; cursor: pointer; }
button:focus-visible { outline: 3px solid #0f172a; outline-offset: 2px; }
`;

/** The CSP source of the page's one <style> (security-headers.ts). */
export const UNSUBSCRIBE_STYLE_HASH = cspHashOf(UNSUBSCRIBE_CSS);

export function unsubscribePage(view: UnsubscribeView, language: MailLanguage): string {
  const words = PATIENT_WORDS[language];
  const { page } = words;
  const views: Record<UnsubscribeView, readonly [title: string, lead: string]> = {
    ask: [page.askTitle, page.askLead],
    done: [page.doneTitle, page.doneLead],
    gone: [page.goneTitle, page.goneLead],
    failed: [page.failedTitle, page.failedLead],
  };
  const [title, lead] = views[view];
  // No action: the form posts to the page's own address, the token's; the field is RFC 8058's one-click body.
  const form =
    view === 'ask'
      ? `\n<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${escapeHtml(page.button)}</button></form>`
      : '';
  return `<!doctype html>
<html lang="${language}" dir="${words.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${UNSUBSCRIBE_CSS}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(lead)}</p>${form}
</main>
</body>
</html>
`;
}
