import { expect } from 'vitest';
import { BffBookingResponse, BffStatusResponse, type BffStatusView } from '../../../../contract/bff.js';
import type { BffConfig } from '../../../../bff/config.js';
import type { NotificationEvent } from '../../../../bff/notifications/notification-event.js';
import type { SiteNotifications } from '../../../../bff/notifications/notification-settings.js';
import { openSitesDatabase, type SitesDatabase } from '../../../../bff/sites/sites-database.js';
import type { Clock } from '../../../../platform/clock.js';
import type { Engine } from '../../../../platform/database/database-url.js';
import { validBooking } from '../../../server/support/test-server.js';
import { closeWhenScopeEnds, once } from '../../../support/scoped-teardown.js';
import { startStack, type Stack } from '../../support/bff-harness.js';
import { sitesTestDatabase, type SitesTestDatabase } from '../../sites/support/sites-test-database.js';

/** The default site's channels in these tests: both on; no worker runs, so every message stays in the outbox to be counted. */
export const BOTH_CHANNELS: Pick<SiteNotifications, 'email' | 'webhook'> = {
  email: 'reception@test-dental.example',
  webhook: { url: 'https://hooks.test-dental.example/clinic', secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}` },
};

export interface ChangesStack extends Stack {
  /** The BFF's own database: a real SQLite file of this stack's (or a PostgreSQL database of its own). */
  database: SitesDatabase;
  /** Where it lives: a fresh folder (or database), removed at close. */
  testDatabase: SitesTestDatabase;
}

/**
 * The reference server and the BFF in front of it, as startStack makes
 * them, with the BFF's own database in a SQLite file (or on PostgreSQL,
 * `engine`): the default site's
 * channels and change rules are `notifications` over the BFF's defaults
 * (BOTH_CHANNELS unless a test says otherwise), and the change-request limits
 * high unless a test sets them. Closed when the scope that started it ends.
 */
export async function startChangesStack(
  options: { notifications?: Partial<SiteNotifications>; bff?: Partial<BffConfig>; clock?: Clock; engine?: Engine } = {},
): Promise<ChangesStack> {
  const testDatabase = await sitesTestDatabase(options.engine ?? 'sqlite');
  const database = await openSitesDatabase(testDatabase.url);
  const defaults = notificationDefaults();
  const stack = await startStack({
    database,
    clock: options.clock,
    bff: {
      changeRateLimit: { limit: 10_000, windowMs: 60_000 },
      changeBookingRateLimit: { limit: 10_000, windowMs: 60_000 },
      notifications: { ...defaults, defaultSite: { ...defaults.defaultSite, ...BOTH_CHANNELS, ...options.notifications } },
      ...options.bff,
    },
  });
  const close = once(async () => {
    await stack.close();
    await database.close();
    await testDatabase.remove();
  });
  closeWhenScopeEnds(close);
  return { ...stack, database, testDatabase, close };
}

/** The BFF's notification settings with nothing set: every channel off, the change rules' defaults. */
function notificationDefaults(): BffConfig['notifications'] {
  return {
    defaultSite: { language: 'en', changeRules: { minNoticeHours: 24, moveAllowed: true } },
    outbox: { worker: true, retryMaxDelayMs: 300_000, giveUpMs: 24 * 3600_000, retentionMs: 72 * 3600_000, leaseMs: 60_000 },
  };
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/** Books through the BFF (validBooking over `changes`: Tuesday 24 November 2026, the day after TEST_NOW); the answer must be 200. */
export async function book(stack: Stack, changes: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<BffBookingResponse> {
  const res = await fetch(`${stack.bff.api}/appointments/book`, {
    method: 'POST',
    headers: { ...JSON_HEADERS, ...headers },
    body: JSON.stringify(validBooking(changes)),
  });
  const body: unknown = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return BffBookingResponse.parse(body);
}

/** POST /api/appointments/change-requests with `body` (a string as it is), from the BFF's /api or another base. */
export function requestChange(api: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${api}/appointments/change-requests`, {
    method: 'POST',
    headers: { ...JSON_HEADERS, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The status view of `reference` (POST /api/appointments/status); the answer must be 200. */
export async function statusOf(stack: Stack, reference: string): Promise<BffStatusView> {
  const res = await fetch(`${stack.bff.api}/appointments/status`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ reference }) });
  expect(res.status).toBe(200);
  return BffStatusResponse.parse(await res.json()).data;
}

export interface OutboxRowSeen {
  id: string;
  site_id: string;
  channel: string;
  event_type: string;
  state: string;
  event: NotificationEvent;
}

/** Every outbox row of the database, oldest first, with its payload parsed. */
export async function outboxRows(database: SitesDatabase): Promise<OutboxRowSeen[]> {
  const rows = await database.db
    .selectFrom('outbox_messages')
    .select(['id', 'site_id', 'channel', 'event_type', 'state', 'payload', 'created_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(({ payload, created_at: _created, ...row }) => ({ ...row, event: JSON.parse(payload) as NotificationEvent }));
}

/** The outbox rows of one event type about one appointment. */
export async function messagesAbout(database: SitesDatabase, type: NotificationEvent['type'], appointmentId: number): Promise<OutboxRowSeen[]> {
  return (await outboxRows(database)).filter((row) => row.event_type === type && row.event.appointment_id === appointmentId);
}
