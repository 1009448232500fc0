import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureServicesBuilt, REPO_ROOT } from './support/stack.js';

/**
 * The settings of the clinic's e-mail, webhooks and outbox, given wrong to
 * the real BFF process (`node dist/bff/main.js`): it stops before it opens
 * anything, with one line on stderr naming the setting and what it must be,
 * and never the value given, which may hold a password or a secret.
 */

const SECRET = 'cs_app-secret-never-printed-4e1f';
const base = {
  UPSTREAM_URL: 'http://127.0.0.1:9/api/v1',
  APP_KEY: 'ck_settings',
  APP_SECRET_KEY: SECRET,
  BOOKING_REF_SECRET: 'a-booking-reference-secret-never-printed-0123',
};
const GOOD_SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const GOOD_SMTP = { SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'bookings@clinic.test' };
const GOOD_HOOK = { WEBHOOK_URL: 'https://hooks.clinic.test/north', WEBHOOK_SECRET: GOOD_SECRET };
const GOOD_DKIM = { DKIM_DOMAIN: 'clinic.test', DKIM_SELECTOR: 'bookings1' };
const KEY_HIDDEN = 'TUlJRXZRSUJBREFOQmdrcWhraUc5dzBCQVFFRkFBU0NCS2N3Z2dTakFnRUFBb0lCQVFDaGlkZGVuLWtleQ';

interface Case {
  what: string;
  env: Record<string, string>;
  /** The one setting the line names. */
  named: string;
  /** Parts of the values that must never be printed. */
  hidden: string[];
}

const cases: Case[] = [
  { what: 'an SMTP_URL of another scheme', env: { ...GOOD_SMTP, SMTP_URL: 'http://relay.hidden-host.test' }, named: 'SMTP_URL', hidden: ['hidden-host'] },
  // Nothing of it can be looked for: the line's own example begins with smtp://.
  { what: 'an SMTP_URL without a host', env: { ...GOOD_SMTP, SMTP_URL: 'smtp://' }, named: 'SMTP_URL', hidden: [] },
  { what: 'an SMTP_URL with a password but no host', env: { ...GOOD_SMTP, SMTP_URL: 'smtp://relay:pw-hidden-3b9c@' }, named: 'SMTP_URL', hidden: ['pw-hidden-3b9c'] },
  {
    what: 'an SMTP_URL without MAIL_FROM',
    env: { SMTP_URL: 'smtp://relay-user:pw-hidden-7a21@127.0.0.1:2525' },
    named: 'MAIL_FROM',
    hidden: ['pw-hidden-7a21', 'relay-user'],
  },
  { what: 'a MAIL_FROM that is no address', env: { ...GOOD_SMTP, MAIL_FROM: 'bookings-hidden-at-clinic' }, named: 'MAIL_FROM', hidden: ['bookings-hidden'] },
  { what: 'a WEBHOOK_URL without WEBHOOK_SECRET', env: { WEBHOOK_URL: 'https://hooks.clinic.test/path-hidden-9c2e' }, named: 'WEBHOOK_SECRET', hidden: ['path-hidden-9c2e'] },
  { what: 'a WEBHOOK_SECRET without WEBHOOK_URL', env: { WEBHOOK_SECRET: GOOD_SECRET }, named: 'WEBHOOK_URL', hidden: [GOOD_SECRET.slice(6)] },
  {
    what: 'a WEBHOOK_SECRET that is not base64',
    env: { ...GOOD_HOOK, WEBHOOK_SECRET: 'whsec_not base64 hidden-5d1b!' },
    named: 'WEBHOOK_SECRET',
    hidden: ['hidden-5d1b'],
  },
  {
    what: 'a WEBHOOK_SECRET of 8 bytes',
    env: { ...GOOD_HOOK, WEBHOOK_SECRET: `whsec_${Buffer.from('hidden!!').toString('base64')}` },
    named: 'WEBHOOK_SECRET',
    hidden: [Buffer.from('hidden!!').toString('base64')],
  },
  {
    what: 'a WEBHOOK_SECRET without whsec_',
    env: { ...GOOD_HOOK, WEBHOOK_SECRET: GOOD_SECRET.slice(6) },
    named: 'WEBHOOK_SECRET',
    hidden: [GOOD_SECRET.slice(6)],
  },
  { what: 'an ftp:// WEBHOOK_URL', env: { ...GOOD_HOOK, WEBHOOK_URL: 'ftp://hooks.clinic.test/ftp-hidden-1e4d' }, named: 'WEBHOOK_URL', hidden: ['ftp-hidden-1e4d', GOOD_SECRET.slice(6)] },
  {
    what: 'a DKIM_PRIVATE_KEY that is no RSA key',
    env: { ...GOOD_SMTP, ...GOOD_DKIM, DKIM_PRIVATE_KEY: `-----BEGIN PRIVATE KEY-----\n${KEY_HIDDEN}\n-----END PRIVATE KEY-----\n` },
    named: 'DKIM_PRIVATE_KEY',
    hidden: [KEY_HIDDEN],
  },
  { what: 'a DKIM_DOMAIN and DKIM_SELECTOR without a key', env: { ...GOOD_SMTP, ...GOOD_DKIM }, named: 'DKIM_PRIVATE_KEY', hidden: [] },
  { what: 'a REMINDER_HOURS_BEFORE past 30 days', env: { REMINDER_HOURS_BEFORE: '721' }, named: 'REMINDER_HOURS_BEFORE', hidden: [] },
  { what: 'an OUTBOX_LEASE_SECONDS shorter than the longest try', env: { OUTBOX_LEASE_SECONDS: '44' }, named: 'OUTBOX_LEASE_SECONDS', hidden: [] },
];

describe('the BFF process started with a bad notification or outbox setting', () => {
  let cwd: string;

  beforeAll(async () => {
    await ensureServicesBuilt();
    cwd = mkdtempSync(join(tmpdir(), 'bff-settings-'));
  });
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  it.each(cases)('stops at $what with one line naming $named, never the value', async ({ env, named, hidden }) => {
    const started = promisify(execFile)(process.execPath, [join(REPO_ROOT, 'dist', 'bff', 'main.js')], {
      cwd,
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: `file:${join(cwd, 'bff.db')}`, ...base, ...env },
      timeout: 30_000,
    });
    const failure = (await started.then(
      () => ({ code: 0, stdout: '', stderr: '' }),
      (error: unknown) => error,
    )) as { code: number; stdout: string; stderr: string };

    expect(failure.code).toBe(1);
    expect(failure.stdout).toBe('');
    const lines = failure.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    // The one problem, by its name: `BFF could not start: Invalid BFF configuration: NAME (what it must be)`.
    expect(lines[0]).toMatch(new RegExp(`^BFF could not start: Invalid BFF configuration: ${named} \\([^;]+\\)$`));
    for (const part of [...hidden, SECRET]) expect(failure.stderr).not.toContain(part);
    // Stopped before anything was opened: no database file.
    expect(readdirSync(cwd)).toEqual([]);
  });
});
