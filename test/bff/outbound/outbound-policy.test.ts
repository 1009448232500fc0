import { describe, expect, it } from 'vitest';
import { parseOutboundAllowlist } from '../../../bff/outbound/outbound-allowlist.js';
import { OutboundPolicy, OutboundRefused, type HostResolver } from '../../../bff/outbound/outbound-policy.js';

/** A resolver the test controls: each name answers the addresses given, any other does not resolve. */
function resolverOf(names: Record<string, string[]>): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = (hostname: string) => {
    asked.push(hostname);
    const found = names[hostname];
    return found ? Promise.resolve(found) : Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
  };
  return Object.assign(resolve, { asked });
}

const DNS = {
  'cdn.clinic.example': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'rebind.example': ['93.184.215.14', '127.0.0.1'],
  'loopback.example': ['127.0.0.1'],
  localhost: ['127.0.0.1', '::1'],
  'mapped.example': ['::ffff:169.254.169.254'],
  'pictures.internal': ['10.1.2.3'],
  'nas.internal': ['192.168.7.9'],
  'empty.example': [],
};

async function refusal(check: Promise<unknown>): Promise<OutboundRefused> {
  const error = await check.then(
    () => undefined,
    (rejected: unknown) => rejected,
  );
  expect(error).toBeInstanceOf(OutboundRefused);
  return error as OutboundRefused;
}

describe('OutboundPolicy', () => {
  const policy = new OutboundPolicy({ resolve: resolverOf(DNS) });

  it('lets a URL through when its host resolves to public addresses only, and names the address to connect to', async () => {
    const target = await policy.check('https://cdn.clinic.example/logo.png');

    expect(target).toEqual({ url: new URL('https://cdn.clinic.example/logo.png'), address: '93.184.215.14', family: 4 });
  });

  it.each([
    'http://127.0.0.1/x.png',
    'http://2130706433/x.png',
    'http://0x7f000001/x.png',
    'http://0x7f.0.0.1/x.png',
    'http://127.1/x.png',
    'http://017700000001/x.png',
    'http://0177.0.0.1/x.png',
    'http://0/x.png',
    'http://[::1]/x.png',
    'http://[::]/x.png',
    'http://[::ffff:127.0.0.1]/x.png',
    'http://[::ffff:7f00:1]/x.png',
    'http://[::127.0.0.1]/x.png',
    'http://[64:ff9b::127.0.0.1]/x.png',
    'http://[2002:7f00:1::]/x.png',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/latest/meta-data/',
    'http://10.0.0.1/x.png',
    'http://100.64.0.1/x.png',
    'http://172.16.0.1/x.png',
    'http://192.168.0.1/x.png',
    'http://[fd00::1]/x.png',
    'http://[fe80::1]/x.png',
    'http://224.0.0.1/x.png',
    'http://[ff02::1]/x.png',
  ])('refuses %s, an address inside a network, without resolving anything', async (url) => {
    const resolve = resolverOf({});
    const refused = await refusal(new OutboundPolicy({ resolve }).check(url));

    expect(refused.reason).toBe('not_public');
    expect(resolve.asked).toEqual([]);
  });

  it('refuses a name that resolves to loopback or a v4-mapped metadata address, naming the address', async () => {
    expect(await refusal(policy.check('http://loopback.example/x.png'))).toMatchObject({ reason: 'not_public', address: '127.0.0.1' });
    expect(await refusal(policy.check('http://mapped.example/x.png'))).toMatchObject({ reason: 'not_public', address: '::ffff:169.254.169.254' });
  });

  it('refuses a name when any of its addresses is inside a network, so no answer can be raced', async () => {
    expect(await refusal(policy.check('http://rebind.example/x.png'))).toMatchObject({ reason: 'not_public', address: '127.0.0.1' });
  });

  it('refuses a name that does not resolve, and anything but http(s) without credentials', async () => {
    expect((await refusal(policy.check('http://nowhere.example/x.png'))).reason).toBe('unresolved');
    expect((await refusal(policy.check('http://empty.example/x.png'))).reason).toBe('unresolved');
    for (const url of ['ftp://cdn.clinic.example/x.png', 'file:///etc/passwd', 'https://user:pass@cdn.clinic.example/x.png', 'not a url']) {
      expect((await refusal(policy.check(url))).reason, url).toBe('not_http');
    }
  });

  it("lets the caller's own upstream origin through, loopback or not: scheme, host and port all alike", async () => {
    const own = 'http://127.0.0.1:4000';

    expect(await policy.check('http://127.0.0.1:4000/assets/demo/logo.svg', own)).toMatchObject({ address: '127.0.0.1' });
    for (const other of ['http://127.0.0.1:4001/x.png', 'https://127.0.0.1:4000/x.png', 'http://localhost:4000/x.png', 'http://2130706433:4001/x.png']) {
      expect((await refusal(policy.check(other, own))).reason, other).toBe('not_public');
    }
  });

  it('lets through what OUTBOUND_ALLOWLIST names: a host, a host and port, or a range the resolved address is in', async () => {
    const allowing = new OutboundPolicy({
      resolve: resolverOf(DNS),
      allowlist: parseOutboundAllowlist('pictures.internal, 127.0.0.1:9000, 192.168.0.0/16'),
    });

    expect(await allowing.check('https://pictures.internal/a.png')).toMatchObject({ address: '10.1.2.3', family: 4 });
    expect(await allowing.check('http://127.0.0.1:9000/a.png')).toMatchObject({ address: '127.0.0.1' });
    expect(await allowing.check('http://2130706433:9000/a.png')).toMatchObject({ address: '127.0.0.1' });
    expect(await allowing.check('http://nas.internal:8080/a.png')).toMatchObject({ address: '192.168.7.9' });
    expect(await allowing.check('http://192.168.1.1/a.png')).toMatchObject({ address: '192.168.1.1' });
    expect((await refusal(allowing.check('http://127.0.0.1:9001/a.png'))).reason).toBe('not_public');
    expect((await refusal(allowing.check('http://10.1.2.3/a.png'))).reason).toBe('not_public');
  });

  it('connects to an IPv6 spelling of an IPv4 address as given, so a NAT64 network still reaches it', async () => {
    const target = await policy.check('http://[64:ff9b::808:808]/a.png');

    expect(target).toMatchObject({ address: '64:ff9b::808:808', family: 6 });
  });
});
