import { UpstreamUnavailable } from './errors.js';

/**
 * An upstream answer's JSON body, read as it streams and refused as soon as it
 * passes `maxBytes` (or at once when its Content-Length says it will): the
 * connection is then closed by `abort`, so an upstream sending 100 MB costs
 * the BFF at most `maxBytes` of memory and never the rest of the transfer.
 * A body over the cap is UpstreamUnavailable('too_large'); one that is not
 * JSON is UpstreamUnavailable('server_error'); read errors (a timeout while
 * streaming, a lost connection) are rethrown for the caller to map.
 */
export async function readJsonWithin(res: Response, maxBytes: number, abort: () => void): Promise<unknown> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > maxBytes || !res.body) {
    abort();
    if (declared > maxBytes) throw tooLarge(maxBytes);
    throw new UpstreamUnavailable('server_error', 'upstream answered no body');
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      abort();
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  // TextDecoder drops a BOM and replaces broken UTF-8, as Response.json() does.
  const text = new TextDecoder().decode(Buffer.concat(chunks, total));
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UpstreamUnavailable('server_error', 'upstream answered non-JSON');
  }
}

/**
 * Runs one upstream call, body included, under one AbortController that a
 * timer aborts with a TimeoutError after `timeoutMs`; `run` may abort it
 * sooner (readJsonWithin hanging up). The timer is cleared when the call
 * ends. (Not AbortSignal.any with AbortSignal.timeout: on Node 20 it keeps
 * every composed signal alive, nodejs/node#54614, a leak in a long-lived BFF.)
 */
export async function withDeadline<T>(timeoutMs: number, run: (controller: AbortController) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('upstream timed out', 'TimeoutError')), timeoutMs);
  try {
    return await run(controller);
  } finally {
    clearTimeout(timer);
  }
}

const tooLarge = (maxBytes: number) => new UpstreamUnavailable('too_large', `upstream answered more than ${maxBytes} bytes`);
