import { describe, expect, it } from 'vitest';
import { parseBffConfig } from '../../../bff/config.js';
import { AllowlistError, parseOutboundAllowlist } from '../../../bff/outbound/outbound-allowlist.js';
import { parseIp } from '../../../bff/outbound/ip-address.js';

const address = (text: string) => parseIp(text)!;

describe('OUTBOUND_ALLOWLIST', () => {
  it('is empty by default: nothing allowed by it', () => {
    const list = parseOutboundAllowlist('');

    expect(list.entries).toEqual([]);
    expect(list.allowsHost(new URL('http://127.0.0.1/x.png'))).toBe(false);
    expect(list.allowsAddress(address('10.0.0.1'))).toBe(false);
  });

  it('allows a host on any port, or on the one port it names (the scheme\'s default when the URL names none)', () => {
    const list = parseOutboundAllowlist(' pictures.internal , 10.0.0.7:8080,[fd00::7]:443, media.internal:80');

    expect(list.allowsHost(new URL('https://pictures.internal:8443/a.png'))).toBe(true);
    expect(list.allowsHost(new URL('http://PICTURES.internal/a.png'))).toBe(true);
    expect(list.allowsHost(new URL('http://10.0.0.7:8080/a.png'))).toBe(true);
    expect(list.allowsHost(new URL('http://10.0.0.7:8081/a.png'))).toBe(false);
    expect(list.allowsHost(new URL('http://10.0.0.7/a.png'))).toBe(false);
    expect(list.allowsHost(new URL('https://[fd00::7]/a.png'))).toBe(true);
    expect(list.allowsHost(new URL('http://[fd00::7]/a.png'))).toBe(false);
    expect(list.allowsHost(new URL('http://media.internal/a.png'))).toBe(true);
    expect(list.allowsHost(new URL('https://media.internal/a.png'))).toBe(false);
    expect(list.allowsHost(new URL('http://pictures.internal.evil.example/a.png'))).toBe(false);
  });

  it('matches a host however the URL spells it, since both are written as URL parsing writes them', () => {
    const list = parseOutboundAllowlist('127.1:9000');

    expect(list.allowsHost(new URL('http://2130706433:9000/a.png'))).toBe(true);
    expect(list.allowsHost(new URL('http://0x7f000001:9000/a.png'))).toBe(true);
  });

  it('allows the addresses of a CIDR range, IPv4 spellings inside IPv6 included', () => {
    const list = parseOutboundAllowlist('10.20.0.0/16,fd00::/8');

    expect(list.allowsAddress(address('10.20.3.4'))).toBe(true);
    expect(list.allowsAddress(address('::ffff:10.20.3.4'))).toBe(true);
    expect(list.allowsAddress(address('10.21.0.1'))).toBe(false);
    expect(list.allowsAddress(address('fd12::1'))).toBe(true);
    expect(list.allowsAddress(address('fe80::1'))).toBe(false);
  });

  it.each([
    ['10.0.0.0/33', 'a prefix too long'],
    ['10.0.0/8', 'an address net does not read'],
    ['10.0.0.0/8/1', 'two slashes'],
    ['::ffff:10.0.0.0/104', 'IPv4 addresses written in IPv6'],
    ['http://pictures.internal', 'a URL'],
    ['user@pictures.internal', 'credentials'],
    ['pictures.internal:0', 'port 0'],
    ['pictures.internal:70000', 'a port too high'],
    ['pictures internal', 'a space'],
  ])('refuses %s (%s), naming the entry', (entry) => {
    expect(() => parseOutboundAllowlist(`ok.internal,${entry}`)).toThrow(AllowlistError);
    expect(() => parseOutboundAllowlist(entry)).toThrow(JSON.stringify(entry));
  });

  it('is refused at start in one line naming the setting and the entry', () => {
    const settings = { UPSTREAM_URL: 'http://127.0.0.1:4000/api/v1', APP_KEY: 'k', APP_SECRET_KEY: 's', BOOKING_REF_SECRET: 'x'.repeat(32) };

    expect(() => parseBffConfig({ ...settings, OUTBOUND_ALLOWLIST: '10.0.0.0/99' })).toThrow(
      'Invalid BFF configuration: OUTBOUND_ALLOWLIST (entry "10.0.0.0/99" is not a host, host:port or CIDR range such as 10.0.0.0/8)',
    );
    expect(parseBffConfig({ ...settings, OUTBOUND_ALLOWLIST: 'a.internal, 10.0.0.0/8' }).outboundAllowlist.entries).toEqual(['a.internal', '10.0.0.0/8']);
  });
});
