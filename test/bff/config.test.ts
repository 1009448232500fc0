import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { deriveReferenceKey, loadBffConfig, parseBffConfig } from '../../bff/config.js';
import { OutboundAllowlist } from '../../bff/outbound/outbound-allowlist.js';
import { REPO_ROOT } from '../server/support/server-process.js';

const SECRET = 'cs_do-not-print-me-0123456789';
const REF_SECRET = 'a-booking-reference-secret-0123456789abcdef';
const valid = { UPSTREAM_URL: 'http://127.0.0.1:4000/api/v1/', APP_KEY: 'ck_1', APP_SECRET_KEY: SECRET, BOOKING_REF_SECRET: REF_SECRET };

describe('BFF configuration', () => {
  it('reads defaults and normalises the upstream URL and origins', () => {
    const config = loadBffConfig({ ...valid, ALLOWED_ORIGINS: 'https://clinic.example/, https://www.clinic.example' }, '/nonexistent');
    expect(config.defaultClinic?.upstreamUrl).toBe('http://127.0.0.1:4000/api/v1');
    expect(config.allowedOrigins).toEqual(['https://clinic.example', 'https://www.clinic.example']);
    expect(config.port).toBe(8080);
    expect(config.bookingRateLimit).toEqual({ limit: 5, windowMs: 600_000 });
  });

  it('gives every setting left unset its default from the schema, so the code applies none of its own', () => {
    const config = parseBffConfig(valid);

    expect({ ...config, referenceKey: undefined }).toEqual({
      defaultClinic: { upstreamUrl: 'http://127.0.0.1:4000/api/v1', appKey: 'ck_1', appSecretKey: SECRET },
      port: 8080,
      host: '127.0.0.1',
      logLevel: 'info',
      trustProxy: false,
      shutdownTimeoutMs: 10_000,
      redisUrl: undefined,
      redisKeyPrefix: 'clinic-booking:',
      allowedOrigins: [],
      publicOrigin: undefined,
      cache: { ttlMs: 60_000, maxStaleMs: 24 * 3600_000, maxBytes: 5 * 1024 * 1024 },
      upstreamTimeoutMs: 5_000,
      bookingTimeoutMs: 15_000,
      upstreamMaxBodyBytes: 1024 * 1024,
      upstreamReadBudget: 120,
      upstreamMaxInFlightPerSite: 8,
      tokenExchangesMaxInFlight: 8,
      apiRateLimit: { limit: 300, windowMs: 60_000 },
      bookingRateLimit: { limit: 5, windowMs: 600_000 },
      statusRateLimit: { limit: 30, windowMs: 600_000 },
      changeRateLimit: { limit: 10, windowMs: 3_600_000 },
      changeBookingRateLimit: { limit: 5, windowMs: 86_400_000 },
      availabilityMaxSlots: 50_000,
      clinicTimeZone: 'Europe/London',
      bookingRules: { minNoticeMinutes: 120, horizonDays: 365, defaultDurationMinutes: 30 },
      referenceKey: undefined,
      previousReferenceKeys: [],
      outboundAllowlist: expect.any(OutboundAllowlist),
      demoPage: false,
      widgetDir: 'widget/dist',
      widgetDevUrl: undefined,
      databaseUrl: 'file:data/bff.db',
      // Every channel off; the change rules' and the outbox's defaults.
      notifications: {
        defaultSite: { language: 'en', changeRules: { minNoticeHours: 24, moveAllowed: true }, reminderHoursBefore: 24 },
        outbox: { worker: true, retryMaxDelayMs: 300_000, giveUpMs: 24 * 3600_000, retentionMs: 72 * 3600_000, leaseMs: 60_000 },
      },
    });
    expect(config.outboundAllowlist.entries).toEqual([]);
  });

  it("reads the clinic's booking rules, a notice and horizon of 0 included", () => {
    const env = { ...valid, BOOKING_MIN_NOTICE_MINUTES: '0', BOOKING_HORIZON_DAYS: '0', BOOKING_DEFAULT_DURATION_MINUTES: '45' };

    expect(parseBffConfig(env).bookingRules).toEqual({ minNoticeMinutes: 0, horizonDays: 0, defaultDurationMinutes: 45 });
  });

  it('reads PUBLIC_ORIGIN as an origin, and none when unset', () => {
    expect(loadBffConfig(valid, '/nonexistent').publicOrigin).toBeUndefined();
    expect(loadBffConfig({ ...valid, PUBLIC_ORIGIN: 'https://book.clinic.example/' }, '/nonexistent').publicOrigin).toBe('https://book.clinic.example');
  });

  it('derives the same reference key from the same BOOKING_REF_SECRET, and another from another', () => {
    const first = loadBffConfig(valid, '/nonexistent').referenceKey;
    expect(loadBffConfig(valid, '/nonexistent').referenceKey.equals(first)).toBe(true);
    expect(loadBffConfig({ ...valid, BOOKING_REF_SECRET: 'x'.repeat(32) }, '/nonexistent').referenceKey.equals(first)).toBe(false);
  });

  it('keeps the reference key whatever APP_SECRET_KEY is: rotating the app key voids no reference', () => {
    const first = loadBffConfig(valid, '/nonexistent').referenceKey;

    expect(loadBffConfig({ ...valid, APP_KEY: 'ck_2', APP_SECRET_KEY: 'the-next-app-secret' }, '/nonexistent').referenceKey.equals(first)).toBe(true);
  });

  it('reads BOOKING_REF_SECRET_PREVIOUS as keys to read with only, each derived as the current one is', () => {
    const older = 'an-older-booking-reference-secret-0123456789';
    expect(loadBffConfig(valid, '/nonexistent').previousReferenceKeys).toEqual([]);

    const config = loadBffConfig({ ...valid, BOOKING_REF_SECRET_PREVIOUS: ` ${older}, ${SECRET} ` }, '/nonexistent');

    expect(config.previousReferenceKeys).toEqual([deriveReferenceKey(older), deriveReferenceKey(SECRET)]);
    expect(config.referenceKey.equals(deriveReferenceKey(REF_SECRET))).toBe(true);
  });

  it.each([
    ['a missing APP_KEY', { APP_KEY: undefined }, 'APP_KEY'],
    ['a missing BOOKING_REF_SECRET (never derived from the app secret)', { BOOKING_REF_SECRET: undefined }, 'BOOKING_REF_SECRET'],
    ['an UPSTREAM_URL that is not a URL', { UPSTREAM_URL: 'not a url' }, 'UPSTREAM_URL'],
    ['a port out of range', { PORT: '70000' }, 'PORT'],
    ['an origin that is not a URL', { ALLOWED_ORIGINS: 'clinic' }, 'ALLOWED_ORIGINS'],
    ['a short BOOKING_REF_SECRET', { BOOKING_REF_SECRET: 'short' }, 'BOOKING_REF_SECRET'],
    ['a PUBLIC_ORIGIN that is not http(s)', { PUBLIC_ORIGIN: 'javascript:alert(1)' }, 'PUBLIC_ORIGIN'],
    ['a negative notice', { BOOKING_MIN_NOTICE_MINUTES: '-1' }, 'BOOKING_MIN_NOTICE_MINUTES'],
    ['a horizon past two years', { BOOKING_HORIZON_DAYS: '731' }, 'BOOKING_HORIZON_DAYS'],
    ['a default length under 5 minutes', { BOOKING_DEFAULT_DURATION_MINUTES: '4' }, 'BOOKING_DEFAULT_DURATION_MINUTES'],
    ['a default length that is not whole minutes', { BOOKING_DEFAULT_DURATION_MINUTES: '30.5' }, 'BOOKING_DEFAULT_DURATION_MINUTES'],
  ])('refuses %s, naming it', (_name, change, variable) => {
    expect(() => loadBffConfig({ ...valid, ...change }, '/nonexistent')).toThrow(variable);
  });

  describe('a BFF of sites only', () => {
    const SITES_KEY = Buffer.alloc(32, 7).toString('base64');
    const sitesOnly = { BOOKING_REF_SECRET: REF_SECRET, SITE_SECRETS_KEY: SITES_KEY, DATABASE_URL: 'file:data/agency.db' };

    it('needs no default clinic beside SITE_SECRETS_KEY: it has none', () => {
      const config = parseBffConfig(sitesOnly);

      expect(config.defaultClinic).toBeUndefined();
      expect(config.sites?.databaseUrl).toBe('file:data/agency.db');
    });

    it('names each setting of the default clinic, and SITE_SECRETS_KEY, when it has neither', () => {
      const refusal = () => parseBffConfig({ BOOKING_REF_SECRET: REF_SECRET });

      expect(refusal).toThrow(
        'Invalid BFF configuration: UPSTREAM_URL, APP_KEY, APP_SECRET_KEY (required: the clinic this BFF serves at /api; or set SITE_SECRETS_KEY to serve only the sites of DATABASE_URL, docs/sites.md)',
      );
    });

    it('names what a default clinic given in part lacks, sites or not', () => {
      expect(() => parseBffConfig({ ...sitesOnly, APP_KEY: 'ck_1' })).toThrow(
        /^Invalid BFF configuration: UPSTREAM_URL \(required with APP_KEY: .*\); APP_SECRET_KEY \(required with APP_KEY: .*\)$/,
      );
    });

    it('names the missing clinic beside every other bad setting, in one error', () => {
      expect(() => parseBffConfig({ BOOKING_REF_SECRET: 'short' })).toThrow(/BOOKING_REF_SECRET \(.*\); UPSTREAM_URL, APP_KEY, APP_SECRET_KEY \(required: /);
    });

    it('refuses DEMO_PAGE, which shows the default clinic', () => {
      expect(() => parseBffConfig({ ...sitesOnly, DEMO_PAGE: 'true' })).toThrow(/^Invalid BFF configuration: DEMO_PAGE \(the demo page shows the clinic served at \/api/);
    });
  });

  it('takes a booking page only on an allowed origin or PUBLIC_ORIGIN, where the widget can run', () => {
    const clinic = { ...valid, ALLOWED_ORIGINS: 'https://clinic.example', PUBLIC_ORIGIN: 'https://book.agency.example' };

    expect(parseBffConfig({ ...clinic, BOOKING_PAGE_URL: 'https://clinic.example/book' }).notifications.defaultSite.bookingPageUrl).toBe(
      'https://clinic.example/book',
    );
    expect(parseBffConfig({ ...clinic, BOOKING_PAGE_URL: 'https://book.agency.example/' }).notifications.defaultSite.bookingPageUrl).toBe(
      'https://book.agency.example/',
    );
    expect(() => parseBffConfig({ ...clinic, BOOKING_PAGE_URL: 'https://elsewhere.example/book' })).toThrow(
      /^Invalid BFF configuration: BOOKING_PAGE_URL \(must be on one of ALLOWED_ORIGINS \(or PUBLIC_ORIGIN\)/,
    );
  });

  describe("patients' e-mail: the relay, DKIM and reminders", () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const PKCS8 = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const PKCS1 = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const relay = { SMTP_URL: 'smtp://relay.agency.example:587', MAIL_FROM: 'bookings@agency.example' };
    const dkim = { DKIM_DOMAIN: 'Agency.example', DKIM_SELECTOR: 'bookings2026' };
    const keyBody = (pem: string) => pem.split('\n')[1]!;

    it('gives the default site the BFF\'s relay and 24 hours of reminders, and no relay without SMTP_URL', () => {
      const config = parseBffConfig({ ...valid, ...relay });

      expect(config.notifications.mailRelay).toEqual({ url: 'smtp://relay.agency.example:587', from: 'bookings@agency.example' });
      expect(config.notifications.defaultSite).toMatchObject({ mailRelay: config.notifications.mailRelay, reminderHoursBefore: 24 });
      expect(parseBffConfig(valid).notifications.defaultSite).not.toHaveProperty('mailRelay');
    });

    it('signs with DKIM_* given as PEM text, in PKCS#1 or PKCS#8, on one line with \\n or on many', () => {
      for (const pem of [PKCS8, PKCS1, PKCS1.replaceAll('\n', '\\n')]) {
        const config = parseBffConfig({ ...valid, ...relay, ...dkim, DKIM_PRIVATE_KEY: pem });

        expect(config.notifications.mailRelay?.dkim).toEqual({ domainName: 'agency.example', keySelector: 'bookings2026', privateKey: PKCS8 });
        expect(config.notifications.defaultSite.mailRelay).toBe(config.notifications.mailRelay);
      }
    });

    it('reads the key from DKIM_PRIVATE_KEY_FILE', () => {
      const folder = mkdtempSync(join(tmpdir(), 'bff-dkim-'));
      try {
        const file = join(folder, 'dkim.pem');
        writeFileSync(file, PKCS1);

        expect(parseBffConfig({ ...valid, ...relay, ...dkim, DKIM_PRIVATE_KEY_FILE: file }).notifications.mailRelay?.dkim?.privateKey).toBe(PKCS8);
        expect(() => parseBffConfig({ ...valid, ...dkim, DKIM_PRIVATE_KEY_FILE: join(folder, 'missing.pem') })).toThrow(
          /^Invalid BFF configuration: DKIM_PRIVATE_KEY_FILE \(cannot be read \(ENOENT\)\)$/,
        );
        writeFileSync(file, 'not a key');
        expect(() => parseBffConfig({ ...valid, ...dkim, DKIM_PRIVATE_KEY_FILE: file })).toThrow(/^Invalid BFF configuration: DKIM_PRIVATE_KEY_FILE \(names a file that is not an unencrypted RSA private key/);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });

    it.each([
      ['an EC key', generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()],
      ['an RSA key of 512 bits', generateKeyPairSync('rsa', { modulusLength: 512 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()],
      ['an encrypted key', privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pass' }).toString()],
      ['a PEM cut short', PKCS8.slice(0, 200)],
      ['a public key', generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString()],
    ])('refuses %s as DKIM_PRIVATE_KEY in one line that names it and never quotes it', (_case, pem) => {
      const error = (() => {
        try {
          parseBffConfig({ ...valid, ...relay, ...dkim, DKIM_PRIVATE_KEY: pem });
        } catch (thrown) {
          return thrown as Error;
        }
        throw new Error('accepted');
      })();

      expect(error.message).toMatch(/^Invalid BFF configuration: DKIM_PRIVATE_KEY \(must be an unencrypted RSA private key in PEM .* of 1024 bits or more/);
      expect(error.message).not.toContain(keyBody(pem));
      expect(error.message.split('\n')).toHaveLength(1);
    });

    it.each<[string, Record<string, string>, RegExp]>([
      ['a domain without selector or key', { DKIM_DOMAIN: 'agency.example' }, /DKIM_SELECTOR \(required with DKIM_DOMAIN\); DKIM_PRIVATE_KEY \(required with DKIM_DOMAIN and DKIM_SELECTOR/],
      ['a key without domain or selector', { DKIM_PRIVATE_KEY: PKCS8 }, /DKIM_DOMAIN, DKIM_SELECTOR \(required with DKIM_PRIVATE_KEY\)/],
      ['the key given both ways', { ...dkim, DKIM_PRIVATE_KEY: PKCS8, DKIM_PRIVATE_KEY_FILE: '/nonexistent/dkim.pem' }, /DKIM_PRIVATE_KEY_FILE \(/],
      ['a domain that is no domain', { ...dkim, DKIM_DOMAIN: 'agency', DKIM_PRIVATE_KEY: PKCS8 }, /DKIM_DOMAIN \(must be a domain name/],
      ['a selector with a space', { ...dkim, DKIM_SELECTOR: 'my key', DKIM_PRIVATE_KEY: PKCS8 }, /DKIM_SELECTOR \(must be a DNS label/],
    ])('refuses %s: DKIM is all three settings or none', (_case, env, problem) => {
      expect(() => parseBffConfig({ ...valid, ...relay, ...env })).toThrow(problem);
    });

    it('takes REMINDER_HOURS_BEFORE from 0 (none) to 720, whole hours only', () => {
      expect(parseBffConfig({ ...valid, REMINDER_HOURS_BEFORE: '0' }).notifications.defaultSite.reminderHoursBefore).toBe(0);
      expect(parseBffConfig({ ...valid, REMINDER_HOURS_BEFORE: '720' }).notifications.defaultSite.reminderHoursBefore).toBe(720);
      for (const bad of ['721', '-1', '1.5', 'a day']) {
        expect(() => parseBffConfig({ ...valid, REMINDER_HOURS_BEFORE: bad }), bad).toThrow(/^Invalid BFF configuration: REMINDER_HOURS_BEFORE \(/);
      }
    });

    it('stops the process with one line when the DKIM key does not read, never printing it', async () => {
      const cut = PKCS8.slice(0, 300);
      const env = { PATH: process.env.PATH, ...valid, ...relay, ...dkim, DKIM_PRIVATE_KEY: cut };
      const run = promisify(execFile)(process.execPath, ['--import', 'tsx', `${REPO_ROOT}bff/main.ts`], { cwd: REPO_ROOT, env: { ...env, NODE_PATH: '' } });
      const failure = (await run.then(() => undefined, (error: unknown) => error)) as { code: number; stderr: string; stdout: string };

      expect(failure.code).toBe(1);
      const lines = failure.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('DKIM_PRIVATE_KEY (must be an unencrypted RSA private key');
      expect(failure.stderr + failure.stdout).not.toContain(keyBody(PKCS8));
    });
  });

  it('stops the process with one line naming the variable and never printing the secret', async () => {
    const env = { PATH: process.env.PATH, APP_SECRET_KEY: SECRET, APP_KEY: 'ck_1', UPSTREAM_URL: 'nope' };
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', `${REPO_ROOT}bff/main.ts`], { cwd: REPO_ROOT, env: { ...env, NODE_PATH: '' } });
    const failure = (await run.then(() => undefined, (error: unknown) => error)) as { code: number; stderr: string; stdout: string };

    expect(failure.code).toBe(1);
    const lines = failure.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('UPSTREAM_URL');
    expect(failure.stderr + failure.stdout).not.toContain(SECRET);
  });
});
