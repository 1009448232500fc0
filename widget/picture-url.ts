import { httpUrlOrUndefined } from '../contract/rules/patterns.js';
import { PICTURES_PATH, pictureKey } from '../contract/rules/pictures.js';

/**
 * A picture of the clinic's content, as the BFF serves it from its own origin
 * (GET /api/pictures/{key}): a page whose CSP allows images only from the BFF
 * shows it, and the visitor's browser never contacts the picture's host.
 * Undefined for an empty or non-http(s) URL.
 */
export function pictureUrl(src: string | null | undefined, apiBase: string): string | undefined {
  const url = httpUrlOrUndefined(src);
  return url && `${apiBase}${PICTURES_PATH}/${pictureKey(url)}`;
}
