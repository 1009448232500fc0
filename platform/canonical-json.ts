/**
 * JSON with the keys of every object sorted: one text for one value, however
 * its keys were ordered or spaced when it was sent. What an Idempotency-Key's
 * body is compared by, on the server (a SHA-256 of it) and in the BFF (the
 * fingerprint it binds a patient's key to), so the two call the same bodies
 * the same.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
