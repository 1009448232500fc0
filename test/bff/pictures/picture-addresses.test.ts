import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { pictureKey } from '../../../contract/rules/pictures.js';
import { parseOutboundAllowlist } from '../../../bff/outbound/outbound-allowlist.js';
import type { HostResolver } from '../../../bff/outbound/outbound-policy.js';
import { freePort } from '../../support/free-port.js';
import { closeWhenScopeEnds, once } from '../../support/scoped-teardown.js';
import { bffClinicFixture, closeServer, listen, startStack } from '../support/bff-harness.js';

/**
 * The picture proxy against a real service on the BFF's own loopback, as a
 * clinic system that writes hostile URLs into its content would aim it: an
 * internal service (a PNG of its own, and a page), a closed port, and the
 * names and spellings that lead to them. Only the site's own upstream origin
 * and what OUTBOUND_ALLOWLIST names may be reached.
 */

const INTERNAL_PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('internal service bytes')]);

/** A service on 127.0.0.1 that the BFF must not be made to reach; it counts every request it gets. */
async function startInternalService() {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/x.png') res.writeHead(200, { 'content-type': 'image/png' }).end(INTERNAL_PNG);
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>admin</h1>');
  });
  const url = await listen(server);
  closeWhenScopeEnds(once(() => closeServer(server)));
  return { port: Number(new URL(url).port), hits };
}

/**
 * A clinic whose content names each URL as a picture (its services' images),
 * behind a BFF with this OUTBOUND_ALLOWLIST that resolves names with
 * `resolveHost`; its upstream (the reference server) on `upstreamPort`.
 */
async function stackNaming(urls: string[], settings: { allowlist?: string; resolveHost?: HostResolver; upstreamPort?: number } = {}) {
  const clinic = bffClinicFixture();
  const service = clinic.website.services[0]!;
  clinic.website.services = urls.map((image) => ({ ...service, image }));
  return startStack({
    clinic,
    resolveHost: settings.resolveHost,
    server: { port: settings.upstreamPort },
    bff: { outboundAllowlist: parseOutboundAllowlist(settings.allowlist ?? '') },
  });
}

/**
 * The answer to a picture, as a browser would see it: status and body. The
 * key is the URL as the content serves it, which URL parsing has written
 * (`2130706433` as `127.0.0.1`), as the widget makes it.
 */
async function answerTo(api: string, url: string) {
  const res = await fetch(`${api}/pictures/${pictureKey(new URL(url).href)}`);
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, type: res.headers.get('content-type'), body };
}

const NOT_SERVED = { status: 502, body: { success: false, error_code: 'upstream_unavailable', message: 'The picture could not be fetched' } };
/** An answer as NOT_SERVED is written; a body that is no JSON (a leaked picture) as its first bytes, to show in a failure. */
const asNotServed = (answer: { status: number; type: string | null; body: Buffer }) => ({
  status: answer.status,
  body: answer.type?.startsWith('application/json') ? (JSON.parse(answer.body.toString()) as unknown) : answer.body.toString('latin1').slice(0, 40),
});

describe('GET /api/pictures/{key} and the addresses behind it', () => {
  it('never reaches a loopback service in any spelling of its address, and says only "could not be fetched"', async () => {
    const internal = await startInternalService();
    const p = internal.port;
    const spellings = [
      `http://127.0.0.1:${p}/x.png`,
      `http://2130706433:${p}/x.png`,
      `http://0x7f000001:${p}/x.png`,
      `http://0x7f.1:${p}/x.png`,
      `http://127.1:${p}/x.png`,
      `http://017700000001:${p}/x.png`,
      `http://0177.0.0.1:${p}/x.png`,
      `http://0.0.0.0:${p}/x.png`,
      `http://localhost:${p}/x.png`,
      `http://[::1]:${p}/x.png`,
      `http://[::ffff:127.0.0.1]:${p}/x.png`,
      `http://[::ffff:7f00:1]:${p}/x.png`,
      `http://[::127.0.0.1]:${p}/x.png`,
      `http://[64:ff9b::127.0.0.1]:${p}/x.png`,
      `http://[2002:7f00:1::]:${p}/x.png`,
    ];
    const stack = await stackNaming(spellings);

    for (const url of spellings) expect(asNotServed(await answerTo(stack.bff.api, url)), url).toEqual(NOT_SERVED);
    expect(internal.hits).toEqual([]);
  });

  it('answers an open port that is no picture host and a closed port alike, so the network cannot be scanned', async () => {
    const internal = await startInternalService();
    const closed = await freePort();
    const urls = [`http://127.0.0.1:${internal.port}/admin`, `http://127.0.0.1:${closed}/x.png`];
    // Allowed, so that the BFF does connect: what it finds there must not show either.
    const stack = await stackNaming(urls, { allowlist: '127.0.0.0/8' });

    const answers = await Promise.all(urls.map(async (url) => asNotServed(await answerTo(stack.bff.api, url))));

    expect(answers).toEqual([NOT_SERVED, NOT_SERVED]);
    expect(internal.hits).toEqual(['/admin']);
    // The operator's log says why, the browser is not told.
    const reasons = stack.bff.logs.map((line) => (JSON.parse(line) as { picture?: string }).picture).filter(Boolean);
    expect(reasons.sort()).toEqual(['not_an_image', 'unreachable']);
  });

  it('refuses a name that resolves to loopback, and connects to the address it checked for a name the operator allows', async () => {
    const internal = await startInternalService();
    const closed = await freePort();
    const asked: string[] = [];
    // Neither name exists in DNS or /etc/hosts: the BFF reaches the service only through the address this resolver gave.
    const resolveHost: HostResolver = (hostname) => {
      asked.push(hostname);
      return Promise.resolve(hostname.endsWith('.clinic.test') ? ['127.0.0.1'] : []);
    };
    const refused = `http://internal.clinic.test:${internal.port}/x.png`;
    const allowed = `http://pictures.clinic.test:${internal.port}/x.png`;
    const allowedOtherPort = `http://pictures.clinic.test:${closed}/x.png`;
    const stack = await stackNaming([refused, allowed, allowedOtherPort], { resolveHost, allowlist: `pictures.clinic.test:${internal.port}` });

    expect(asNotServed(await answerTo(stack.bff.api, refused))).toEqual(NOT_SERVED);
    expect(internal.hits).toEqual([]);
    const served = await answerTo(stack.bff.api, allowed);
    expect(served.status).toBe(200);
    expect(served.body.equals(INTERNAL_PNG)).toBe(true);
    expect(internal.hits).toEqual(['/x.png']);
    // The allowlist names a port: the same host on another is judged by its address, and refused.
    expect(asNotServed(await answerTo(stack.bff.api, allowedOtherPort))).toEqual(NOT_SERVED);
    expect(asked.filter((name) => name === 'pictures.clinic.test')).toHaveLength(2);
  });

  it("serves pictures from the site's own upstream origin (scheme, host and port), as the demo's come from the reference server", async () => {
    const internal = await startInternalService();
    const upstreamPort = await freePort();
    const own = `http://127.0.0.1:${upstreamPort}/assets/demo/logo.svg`;
    const sameHostOtherPort = `http://127.0.0.1:${internal.port}/x.png`;
    const sameAddressOtherName = `http://localhost:${upstreamPort}/assets/demo/logo.svg`;
    const stack = await stackNaming([own, sameHostOtherPort, sameAddressOtherName], { upstreamPort });

    const served = await answerTo(stack.bff.api, own);
    expect(served.status).toBe(200);
    expect(served.type).toBe('image/svg+xml');
    expect(served.body.toString()).toMatch(/^<svg/);
    expect(asNotServed(await answerTo(stack.bff.api, sameHostOtherPort))).toEqual(NOT_SERVED);
    expect(asNotServed(await answerTo(stack.bff.api, sameAddressOtherName))).toEqual(NOT_SERVED);
    expect(internal.hits).toEqual([]);
  });

  it('reaches an internal address through a CIDR range of OUTBOUND_ALLOWLIST, however it is named, and nothing outside the range', async () => {
    const internal = await startInternalService();
    const p = internal.port;
    const resolveHost: HostResolver = (hostname) => Promise.resolve(hostname === 'pictures.clinic.test' ? ['127.0.0.1'] : ['10.1.2.3']);
    const inside = [`http://127.0.0.1:${p}/x.png`, `http://[::ffff:127.0.0.1]:${p}/x.png`, `http://pictures.clinic.test:${p}/x.png`];
    const outside = [`http://elsewhere.clinic.test:${p}/x.png`, `http://[::1]:${p}/x.png`];
    const stack = await stackNaming([...inside, ...outside], { allowlist: '192.168.0.0/16, 127.0.0.0/8', resolveHost });

    for (const url of inside) {
      const served = await answerTo(stack.bff.api, url);
      expect(served.status, url).toBe(200);
      expect(served.body.equals(INTERNAL_PNG), url).toBe(true);
    }
    for (const url of outside) expect(asNotServed(await answerTo(stack.bff.api, url)), url).toEqual(NOT_SERVED);
    expect(internal.hits).toEqual(['/x.png', '/x.png', '/x.png']);
  });
});
