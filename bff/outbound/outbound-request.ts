import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { OutboundTarget } from './outbound-policy.js';

export interface OutboundRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Aborts the connection, the wait for the answer and the reading of its body alike. */
  signal?: AbortSignal;
}

/**
 * Sends one request to a target OutboundPolicy let through, connected to the
 * address it checked: the host name still goes in the Host header and TLS's
 * SNI and certificate check, but is never looked up again, so a DNS answer
 * that changes between the check and the connection (rebinding) changes
 * nothing. No redirect is followed (node:http follows none) and nothing is
 * decompressed: the caller sees the answer as it came. A fresh connection
 * each time (no agent), so no pooled socket of another request is reused.
 * Resolves with the answer once its head arrives; the caller reads or
 * destroys its body.
 */
export function requestOutbound(target: OutboundTarget, options: OutboundRequestOptions = {}): Promise<IncomingMessage> {
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  const settings: RequestOptions = {
    method: options.method ?? 'GET',
    headers: options.headers,
    signal: options.signal,
    agent: false,
    lookup: pinnedLookup(target),
  };
  return new Promise((resolve, reject) => {
    const req = send(target.url, settings, resolve);
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A lookup that answers the checked address, whatever it is asked (net asks it only for the target's own host name). */
function pinnedLookup({ address, family }: OutboundTarget): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}
