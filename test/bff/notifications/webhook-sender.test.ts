import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { WebhookSender } from '../../../bff/notifications/webhook-sender.js';
import { parseOutboundAllowlist } from '../../../bff/outbound/outbound-allowlist.js';
import { OutboundPolicy } from '../../../bff/outbound/outbound-policy.js';
import { freePort } from '../../support/free-port.js';
import { eventually } from '../../support/eventually.js';
import { closeWhenScopeEnds } from '../../support/scoped-teardown.js';
import { eventOf, messageOf } from './support/events.js';
import { startReceiver } from './support/webhook-receiver.js';

const SECRET = `whsec_${Buffer.alloc(32, 0x5a).toString('base64')}`;
const OTHER_SECRET = `whsec_${Buffer.alloc(32, 0x33).toString('base64')}`;

/** The rule a BFF whose OUTBOUND_ALLOWLIST names 127.0.0.1 has: these tests' receivers are on loopback. */
const allowingLoopback = () => new OutboundPolicy({ allowlist: parseOutboundAllowlist('127.0.0.1') });
const sender = (outbound = allowingLoopback(), timeoutMs?: number) => new WebhookSender({ outbound, ...(timeoutMs ? { timeoutMs } : {}) });
const moveMessage = () => messageOf(eventOf('booking.move_requested'), 'webhook');

describe('a webhook to the clinic', () => {
  it('is POSTed as JSON {type, timestamp, data}, signed so that Standard Webhooks\' own check accepts it', async () => {
    const receiver = await startReceiver(SECRET);
    const message = moveMessage();

    const result = await sender().send(message, { url: `${receiver.url}/hooks/clinic?site=1`, secret: SECRET });

    expect(result).toEqual({ delivered: true });
    expect(receiver.received).toHaveLength(1);
    const [hook] = receiver.received;
    expect(hook).toMatchObject({ method: 'POST', path: '/hooks/clinic?site=1' });
    expect(hook!.refused).toBeUndefined();
    expect(hook!.headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': message.id, 'webhook-timestamp': expect.stringMatching(/^\d{10}$/) });
    expect(hook!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(hook!.verified).toEqual({ type: 'booking.move_requested', timestamp: message.event.occurred_at, data: message.event });
  });

  it('keeps its webhook-id over two tries, so the receiver can drop the repeat, and signs each try', async () => {
    const receiver = await startReceiver(SECRET);
    const message = moveMessage();

    await sender().send(message, { url: receiver.url, secret: SECRET });
    await sender().send({ ...message, attempts: 2 }, { url: receiver.url, secret: SECRET });

    expect(receiver.received.map((hook) => hook.headers['webhook-id'])).toEqual([message.id, message.id]);
    expect(receiver.received.every((hook) => hook.verified !== undefined)).toBe(true);
  });

  it('fails the receiver\'s check when signed with another secret, and the receiver\'s 401 is a failed try', async () => {
    const receiver = await startReceiver(SECRET);

    const result = await sender().send(moveMessage(), { url: receiver.url, secret: OTHER_SECRET });

    expect(receiver.received[0]?.refused).toMatch(/signature/i);
    expect(result).toEqual({ delivered: false, permanent: false, error: 'http 401' });
  });

  it('is refused on loopback by the outbound rule, permanently, and never reaches the receiver', async () => {
    const receiver = await startReceiver(SECRET);

    const result = await sender(new OutboundPolicy()).send(moveMessage(), { url: receiver.url, secret: SECRET });

    expect(result).toEqual({ delivered: false, permanent: true, error: 'refused not_public' });
    expect(receiver.received).toHaveLength(0);
  });

  it('goes to a loopback receiver that OUTBOUND_ALLOWLIST names by host and port, and to no other port', async () => {
    const receiver = await startReceiver(SECRET);
    const { host } = new URL(receiver.url);
    const outbound = new OutboundPolicy({ allowlist: parseOutboundAllowlist(host) });
    const elsewhere = new OutboundPolicy({ allowlist: parseOutboundAllowlist(`127.0.0.1:${await freePort()}`) });

    expect(await sender(outbound).send(moveMessage(), { url: receiver.url, secret: SECRET })).toEqual({ delivered: true });
    expect(await sender(elsewhere).send(moveMessage(), { url: receiver.url, secret: SECRET })).toMatchObject({ delivered: false, error: 'refused not_public' });
    expect(receiver.received).toHaveLength(1);
  });

  it('connects to the address the rule checked, whatever the name resolves to afterwards', async () => {
    const receiver = await startReceiver(SECRET);
    const { port } = new URL(receiver.url);
    let lookups = 0;
    // A name that answers loopback once (checked and allowed by range), then an address nothing listens on.
    const outbound = new OutboundPolicy({
      allowlist: parseOutboundAllowlist('127.0.0.0/8'),
      resolve: async () => (lookups++ === 0 ? ['127.0.0.1'] : ['192.0.2.123']),
    });

    expect(await sender(outbound).send(moveMessage(), { url: `http://hooks.agency.example:${port}/x`, secret: SECRET })).toEqual({ delivered: true });
    expect(lookups).toBe(1);
    expect(receiver.received[0]?.headers.host).toBe(`hooks.agency.example:${port}`);
  });

  it('follows no redirect: a 302 is a failed try, and where it points is never asked', async () => {
    const target = await startReceiver(SECRET);
    const redirecting = await startReceiver(SECRET, (res) => res.writeHead(302, { location: `${target.url}/elsewhere` }).end());

    const result = await sender().send(moveMessage(), { url: redirecting.url, secret: SECRET });

    expect(result).toEqual({ delivered: false, permanent: false, error: 'http 302' });
    expect(redirecting.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
  });

  it.each([
    [200, { delivered: true }],
    [202, { delivered: true }],
    [410, { delivered: false, permanent: true, error: 'http 410' }],
    [404, { delivered: false, permanent: false, error: 'http 404' }],
    [429, { delivered: false, permanent: false, error: 'http 429' }],
    [500, { delivered: false, permanent: false, error: 'http 500' }],
    [503, { delivered: false, permanent: false, error: 'http 503' }],
  ])('judges an answer of %i by its status alone', async (status, expected) => {
    const receiver = await startReceiver(SECRET, (res) => res.writeHead(status, { 'content-type': 'text/plain' }).end('the receiver\'s own words'));

    expect(await sender().send(moveMessage(), { url: receiver.url, secret: SECRET })).toEqual(expected);
  });

  it('reads no answer body: one that never ends is cut off once its status is in', async () => {
    const receiver = await startReceiver(SECRET, (res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 1);
      const pump = () => {
        while (res.write(chunk));
        res.once('drain', pump);
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
    });

    expect(await sender().send(moveMessage(), { url: receiver.url, secret: SECRET })).toEqual({ delivered: true });
    await eventually(() => expect(receiver.closedAnswers).toBe(1));
  });

  it('reports a receiver that is not there in a few words, a failed try', async () => {
    const port = await freePort();

    expect(await sender().send(moveMessage(), { url: `http://127.0.0.1:${port}/hook`, secret: SECRET })).toEqual({
      delivered: false,
      permanent: false,
      error: 'network ECONNREFUSED',
    });
  });

  it('gives up on a receiver that takes the request and never answers: `timeout`, a failed try', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    closeWhenScopeEnds(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    });
    const { port } = silent.address() as { port: number };

    // A short timeout so the test does not wait out the 10 s of WEBHOOK_TIMEOUT_MS.
    expect(await sender(allowingLoopback(), 200).send(moveMessage(), { url: `http://127.0.0.1:${port}/hook`, secret: SECRET })).toEqual({
      delivered: false,
      permanent: false,
      error: 'timeout',
    });
  });

  it('takes a name that does not resolve as a failed try, for its DNS may come', async () => {
    const outbound = new OutboundPolicy({
      resolve: async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
      },
    });

    expect(await sender(outbound).send(moveMessage(), { url: 'https://hooks.agency.example/x', secret: SECRET })).toEqual({
      delivered: false,
      permanent: false,
      error: 'dns',
    });
  });
});
