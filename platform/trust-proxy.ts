/**
 * Express 'trust proxy' from the TRUST_PROXY setting: true, false, a hop
 * count, or a list of addresses and subnets. It decides which client address
 * the per-IP limits see, so both services read it the same way.
 */
export function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false' || value === '') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}
