/**
 * The subset of HTML a clinic's String (HTML) fields may keep: basic
 * formatting, no scripts, styles, event handlers or embeds. The BFF enforces
 * it with sanitize-html; the widget checks again before rendering.
 */
export const ALLOWED_HTML_TAGS = [
  'p', 'br', 'strong', 'em', 'b', 'i', 'u', 'ul', 'ol', 'li', 'a', 'h3', 'h4', 'blockquote', 'span',
] as const;

/** Attributes kept per tag; every other attribute is removed. */
export const ALLOWED_HTML_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = { a: ['href', 'title'] };

/** URL schemes a link may use. */
export const ALLOWED_LINK_SCHEMES = ['http', 'https', 'mailto', 'tel'] as const;

/** Every kept link opens in a new tab, with no opener and no referrer, and passes no ranking. */
export const SAFE_LINK_ATTRIBUTES = { rel: 'noopener noreferrer nofollow', target: '_blank' } as const;
