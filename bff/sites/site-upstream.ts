import { OutboundRefused, type OutboundPolicy } from '../outbound/outbound-policy.js';

/**
 * Why a site's `upstream_url` is refused, or undefined when it may be used:
 * the rule of every outbound call (bff/outbound/), without the exemption of
 * a site's own upstream, since this is that upstream. An address inside a
 * network (the BFF's loopback, a cloud's metadata service at
 * 169.254.169.254, a private range) is refused unless OUTBOUND_ALLOWLIST
 * names it: one clinic system's vendor must not point the BFF, with the app
 * secret, at what stands beside it. A name that does not resolve yet is
 * taken (its DNS may come later); the sentence names no credential.
 */
export function upstreamRefusal(outbound: OutboundPolicy, upstreamUrl: string): Promise<string | undefined> {
  return outboundRefusal(outbound, upstreamUrl, 'upstream_url');
}

/**
 * The same rule for any URL an operator gives a site that the BFF will call
 * (its webhook): why `url` is refused, the sentence starting with `name`, or
 * undefined when it may be used.
 */
export async function outboundRefusal(outbound: OutboundPolicy, url: string, name: string): Promise<string | undefined> {
  try {
    await outbound.check(url);
    return undefined;
  } catch (error) {
    if (!(error instanceof OutboundRefused)) throw error;
    if (error.reason === 'unresolved') return undefined;
    if (error.reason === 'not_http') return `${name} must be an http(s) URL without a user name or password`;
    const { host } = new URL(url);
    return `${name} ${host} is at ${error.address ?? 'an address'}, which is not public; list ${host} in OUTBOUND_ALLOWLIST to allow it`;
  }
}
