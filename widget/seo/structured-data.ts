import type { StructuredDataSource } from './json-ld.js';

/*
 * The way into the clinic's structured data, in the main module: the builder itself (json-ld.ts) is a
 * part of its own, fetched once the content shows, since nothing a patient sees waits for it.
 */

/** The attribute that keeps a widget from adding structured data (a page that has its own). */
export const NO_STRUCTURED_DATA = 'no-structured-data';

/**
 * Puts the clinic's schema.org JSON-LD in the page's <head> (json-ld.ts), unless the widget has the
 * no-structured-data attribute: then its part is not even fetched. The attribute is asked again once
 * the part has come, in case the page set it meanwhile, and whether the widget is still on the page. A part that cannot be fetched (offline, a page
 * open across a release) leaves the page without structured data and says nothing: it is for search
 * engines, no patient can act on it, and the browser already logs the failed request. Only the fetch
 * is caught: a fault of the builder still surfaces.
 */
export function publishStructuredData(host: Element, content: StructuredDataSource | undefined): void {
  // Asked again when the part has come: a widget taken off the page meanwhile (or given the attribute) writes nothing.
  const wanted = () => host.isConnected && !host.hasAttribute(NO_STRUCTURED_DATA);
  if (content && wanted()) import('./json-ld.js').then(({ publishJsonLd }) => wanted() && publishJsonLd(content), () => {});
}
