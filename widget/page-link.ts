/**
 * A URL the page gives in an attribute (`success-url`, `privacy-url`), resolved against the page:
 * http(s) or relative only. Anything else (`javascript:`, `data:`, a malformed URL) would run script
 * in the host page or open something the clinic did not mean, so it is ignored with a warning that
 * names the attribute, and the widget behaves as if the attribute were absent.
 */
export function pageLink(value: string, attribute: string): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value, document.baseURI);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url.href;
  } catch {
    // Not a URL at all: ignored below, like any other scheme.
  }
  console.warn(`<clinic-booking>: ${attribute} must be an http(s) or relative URL; ignored`);
  return undefined;
}
