import { createServer, type IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { parseOutboundAllowlist } from '../../../bff/outbound/outbound-allowlist.js';
import { OutboundPolicy, type HostResolver } from '../../../bff/outbound/outbound-policy.js';
import { requestOutbound } from '../../../bff/outbound/outbound-request.js';
import { closeWhenScopeEnds, once } from '../../support/scoped-teardown.js';
import { closeServer, listen } from '../support/bff-harness.js';

/**
 * A request to what the policy let through goes to the address it checked.
 * The names here exist in no DNS and no /etc/hosts: only the test's resolver
 * knows them, so a request that arrives was connected to that resolver's
 * answer, not to a lookup of its own.
 */
const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
/** Answers /slow with its head, then never finishes the body, until the test lets it. */
const stalled: (() => void)[] = [];
const server = createServer((req, res) => {
  seen.push({ url: req.url ?? '', headers: req.headers });
  if (req.url === '/slow') {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.write('partial');
    stalled.push(() => res.end());
    return;
  }
  res.writeHead(200, { 'content-type': 'text/plain' }).end(`hello ${req.headers.host}`);
});
const port = Number(new URL(await listen(server)).port);
closeWhenScopeEnds(once(() => closeServer(server)));

describe('requestOutbound', () => {
  /** A resolver that answers loopback the first time it is asked a name, and a public address after: a DNS rebinding. */
  function rebinding(): HostResolver & { asked: string[] } {
    const asked: string[] = [];
    const resolve = (hostname: string) => {
      asked.push(hostname);
      return Promise.resolve(asked.length === 1 ? ['127.0.0.1'] : ['93.184.215.14']);
    };
    return Object.assign(resolve, { asked });
  }

  it('connects to the address the policy checked, with the name in the Host header, looking the name up only once', async () => {
    const resolve = rebinding();
    const policy = new OutboundPolicy({ resolve, allowlist: parseOutboundAllowlist('127.0.0.0/8') });

    const target = await policy.check(`http://pictures.clinic.test:${port}/a.png`);
    const res = await requestOutbound(target, { headers: { accept: 'image/png' } });
    let body = '';
    for await (const chunk of res as AsyncIterable<Buffer>) body += chunk.toString();

    expect(res.statusCode).toBe(200);
    expect(body).toBe(`hello pictures.clinic.test:${port}`);
    expect(seen.at(-1)).toMatchObject({ url: '/a.png', headers: { host: `pictures.clinic.test:${port}`, accept: 'image/png' } });
    // The name is in no DNS, so a lookup of the connection's own would have failed; the resolver's second answer is 93.184.215.14.
    expect(resolve.asked).toEqual(['pictures.clinic.test']);
  });

  it('stops reading a body when its signal aborts', async () => {
    const policy = new OutboundPolicy({ allowlist: parseOutboundAllowlist('127.0.0.1') });
    const abort = new AbortController();
    const res = await requestOutbound(await policy.check(`http://127.0.0.1:${port}/slow`), { signal: abort.signal });

    const reading = (async () => {
      for await (const chunk of res as AsyncIterable<Buffer>) if (chunk.length) abort.abort();
    })();

    await expect(reading).rejects.toThrow();
    stalled.forEach((finish) => finish());
  });
});
