// The clinic's receivers of the outbox benchmark (outbox-receiver-process.mjs, a child process): where they
// listen, what they took (each message id with every time it came), and taking them down and up again.

import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { HOST, ROOT, findFreePort, spawnNode, waitUntilReady } from './processes.mjs';

const RECEIVER_ENTRY = join(ROOT, 'bench/support/outbox-receiver-process.mjs');

/** A Standard Webhooks secret: whsec_ and base64 of 32 random bytes. */
export function newWebhookSecret() {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Starts the receivers; answers their addresses, the BFF settings that send to them, what they took so
 * far (`received`: id -> { channel, times: [ms, …] }; a second time is a repeat), and down() / up().
 */
export async function startOutboxReceivers() {
  const [smtpPort, webhookPort, controlPort] = [await findFreePort(), await findFreePort(), await findFreePort()];
  const secret = newWebhookSecret();
  const received = new Map();
  const tally = { email: 0, webhook: 0, unsigned: 0, withoutId: 0, emailSample: undefined };
  const onLine = (line) => {
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      return;
    }
    if (entry.sample === 'email') {
      tally.emailSample = entry.ok;
      return;
    }
    if (entry.channel !== 'email' && entry.channel !== 'webhook') return;
    tally[entry.channel] += 1;
    if (!entry.ok) tally.unsigned += 1;
    if (!entry.id) {
      tally.withoutId += 1;
      return;
    }
    const seen = received.get(entry.id);
    if (seen) seen.times.push(entry.at);
    else received.set(entry.id, { channel: entry.channel, times: [entry.at] });
  };
  const env = {
    PATH: process.env.PATH ?? '',
    SMTP_PORT: String(smtpPort),
    WEBHOOK_PORT: String(webhookPort),
    CONTROL_PORT: String(controlPort),
    WEBHOOK_SECRET: secret,
  };
  const child = spawnNode('outbox receivers', [RECEIVER_ENTRY], env, { onStdoutLine: onLine });
  const control = `http://${HOST}:${controlPort}`;
  await waitUntilReady(child, `${control}/ready`);
  const command = async (action) => {
    const response = await fetch(`${control}/${action}`, { method: 'POST' });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`the receivers could not go ${action}: ${text.trim()}`);
  };
  return {
    pid: child.pid,
    received,
    tally,
    /** The BFF's settings for a default site whose e-mail and webhook go to these receivers. */
    bffSettings: {
      SMTP_URL: `smtp://${HOST}:${smtpPort}`,
      MAIL_FROM: 'bookings@bench.example',
      CLINIC_NOTIFY_EMAIL: 'reception@bench.example',
      WEBHOOK_URL: `http://${HOST}:${webhookPort}/clinic`,
      WEBHOOK_SECRET: secret,
      // A loopback receiver is refused unless allowed (bff/outbound/outbound-allowlist.ts): this one port only.
      OUTBOUND_ALLOWLIST: `${HOST}:${webhookPort}`,
    },
    down: () => command('down'),
    up: () => command('up'),
  };
}
