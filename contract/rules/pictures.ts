/**
 * The clinic's pictures as the BFF serves them from its own origin
 * (GET /api/pictures/{key}), so a page whose Content-Security-Policy allows
 * images only from the BFF still shows them. The key is the picture's own
 * URL, as the clinic's content names it, in base64url (UTF-8): the widget
 * makes it with no lookup, and the BFF serves it only while the clinic's
 * current content names that URL (no open proxy).
 */
export const PICTURES_PATH = '/pictures';

/** The longest key the BFF accepts: a 2 KB URL, in base64url. */
export const MAX_PICTURE_KEY_CHARS = 2732;

/** The key of a picture URL: its UTF-8 bytes in base64url, without padding. */
export function pictureKey(url: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(url)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The URL a key stands for, or undefined when it is no base64url of UTF-8. */
export function pictureUrlOfKey(key: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(key) || key.length > MAX_PICTURE_KEY_CHARS) return undefined;
  try {
    const binary = atob(key.replace(/-/g, '+').replace(/_/g, '/'));
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}
