import { request } from 'node:http';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMailbox, type Mailbox, type MailboxMessage, type MailboxOptions } from '../../scripts/support/demo-mailbox.mjs';
import { eventually } from '../support/eventually.js';
import { launchBrowser, newContext } from './support/browser.js';
import type { PageGlobals } from './support/dom.js';

/** What a clinic's booking e-mail looks like to the mailbox: both parts, and HTML that tries to run a script. */
const BOOKING_MAIL = {
  from: 'Demo Clinic Bookings <bookings@demo-clinic.test>',
  to: 'reception@demo-clinic.test',
  subject: 'New booking: Tue 3 Mar, 10:00',
  text: 'A new booking.\nDentist: Dr Amara Okafor\n',
  html: '<h1 id="greeting">A new booking</h1><p>Dentist: Dr Amara Okafor</p><script>document.body.dataset.ran = "yes"</script>',
};

const unescapeAttribute = (value: string) =>
  value.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

/** The page with each frame's srcdoc taken out: what the page itself holds. */
const withoutSrcdoc = (page: string) => page.replace(/ srcdoc="[^"]*"/g, ' srcdoc=""');

const textOf = (html: string) => html.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ');

describe("the clinic's mailbox of npm start (scripts/support/demo-mailbox.mjs)", () => {
  const opened: { mailbox: Mailbox; transport: Transporter }[] = [];

  /**
   * A mailbox on free ports, and a transport to it as the BFF's (loopback SMTP, no TLS). Pooled: smtp-server
   * greets each new connection only after 100 ms (its check for clients that talk too soon).
   */
  async function open(options: MailboxOptions = {}) {
    const mailbox = await startMailbox({ demoUrl: 'http://localhost:8080/', address: 'reception@demo-clinic.test', ...options });
    const transport = nodemailer.createTransport({ url: `smtp://127.0.0.1:${mailbox.smtpPort}`, pool: true });
    opened.push({ mailbox, transport });
    return { mailbox, transport };
  }
  const page = async (mailbox: Mailbox) => (await fetch(mailbox.url)).text();
  const json = async (mailbox: Mailbox) => ((await (await fetch(`${mailbox.url}messages.json`)).json()) as { messages: MailboxMessage[] }).messages;

  afterEach(async () => {
    for (const { mailbox, transport } of opened.splice(0)) {
      transport.close();
      await mailbox.close();
    }
  });

  it('says what will appear there while it is empty', async () => {
    const { mailbox } = await open();

    const res = await fetch(mailbox.url);
    const html = await res.text();

    expect(res.status).toBe(200);
    expect(textOf(html)).toContain(
      "No e-mail yet Book an appointment on the demo page; the clinic's e-mail appears here, and the patient's confirmation when the e-mail box is ticked.",
    );
    expect(textOf(html)).toContain('The e-mail the demo sends to the clinic (reception@demo-clinic.test) and to patients who ask for a confirmation, caught on this machine');
    expect(html).toContain('<a href="http://localhost:8080/">demo page</a>');
    expect(await json(mailbox)).toEqual([]);
  });

  it('lists a message with its headers and plain text, its HTML only inside a sandboxed frame', async () => {
    const { mailbox, transport } = await open();
    const sent = await transport.sendMail(BOOKING_MAIL);

    const res = await fetch(mailbox.url);
    const html = await res.text();

    expect(html).toContain('<h2 id="subject-1">New booking: Tue 3 Mar, 10:00</h2>');
    expect(html).toContain('<dd>Demo Clinic Bookings &lt;bookings@demo-clinic.test&gt;</dd>');
    expect(html).toContain('<dd>reception@demo-clinic.test</dd>');
    expect(html).toContain(`<dd class="mono">${sent.messageId.replace('<', '&lt;').replace('>', '&gt;')}</dd>`);
    expect(html).toMatch(/<dt>Date<\/dt><dd><time datetime="\d{4}-\d\d-\d\dT[\d:.]+Z">/);
    expect(html).toContain('<pre>A new booking.\nDentist: Dr Amara Okafor\n</pre>');
    // The HTML part: one frame, sandboxed of everything, holding it escaped in srcdoc, with a policy of its own.
    const frames = [...html.matchAll(/<iframe ([^>]*)>/g)].map((m) => m[1]!);
    expect(frames).toHaveLength(1);
    expect(frames[0]).toMatch(/^sandbox srcdoc="/);
    const srcdoc = unescapeAttribute(/srcdoc="([^"]*)"/.exec(frames[0]!)![1]!);
    expect(srcdoc).toContain(BOOKING_MAIL.html);
    expect(srcdoc).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
    // Nowhere else: the page holds no piece of the message's HTML, and no script but its own.
    expect(withoutSrcdoc(html)).not.toContain('greeting');
    expect(withoutSrcdoc(html)).not.toContain('dataset.ran');
    expect(html.match(/<script/g)).toHaveLength(1);
    const policy = res.headers.get('content-security-policy')!;
    expect(policy).toMatch(/^default-src 'none'; script-src 'sha256-[\w+/]+=*';/);
    expect(policy).toContain("frame-ancestors 'none'");
  });

  it('gives each message in /messages.json, as it was received', async () => {
    const { mailbox, transport } = await open();
    const sent = await transport.sendMail(BOOKING_MAIL);

    const messages = await json(mailbox);

    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      id: 1,
      envelope: { from: 'bookings@demo-clinic.test', to: ['reception@demo-clinic.test'] },
      subject: BOOKING_MAIL.subject,
      from: 'Demo Clinic Bookings <bookings@demo-clinic.test>',
      to: 'reception@demo-clinic.test',
      message_id: sent.messageId,
      text: BOOKING_MAIL.text,
      html: BOOKING_MAIL.html,
      attachments: [],
    });
  });

  it('keeps the last 50 messages, newest first', async () => {
    const { mailbox, transport } = await open();
    for (let n = 1; n <= 51; n++) await transport.sendMail({ ...BOOKING_MAIL, subject: `Booking ${n}` });

    const messages = await json(mailbox);
    const html = await page(mailbox);

    expect(messages).toHaveLength(50);
    expect(messages[0]!.subject).toBe('Booking 51');
    expect(messages.at(-1)!.subject).toBe('Booking 2');
    expect(html.match(/<article /g)).toHaveLength(50);
    expect(html).toContain('50 e-mails, newest first (the last 50 are kept)');
    expect(html).not.toContain('>Booking 1<');
  });

  it('refuses a message over its size limit with 552, and keeps nothing of it', async () => {
    const { mailbox, transport } = await open({ maxMessageBytes: 10_000 });

    await expect(transport.sendMail({ ...BOOKING_MAIL, text: 'x'.repeat(20_000) })).rejects.toMatchObject({ responseCode: 552 });

    expect(await json(mailbox)).toEqual([]);
  });

  it('answers only to a loopback Host, so no other site can read it by DNS rebinding', async () => {
    const { mailbox } = await open();
    const statusFor = (host: string) =>
      new Promise<number>((resolve, reject) => {
        request({ host: '127.0.0.1', port: mailbox.httpPort, path: '/messages.json', headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        })
          .on('error', reject)
          .end();
      });

    expect(await statusFor(`rebound.example:${mailbox.httpPort}`)).toBe(421);
    expect(await statusFor(`localhost:${mailbox.httpPort}`)).toBe(200);
    expect(await statusFor(`127.0.0.1:${mailbox.httpPort}`)).toBe(200);
  });

  describe('in Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser.close();
    });

    it("shows the message's HTML without running its script, and a new message as it arrives", async () => {
      const { mailbox, transport } = await open();
      await transport.sendMail(BOOKING_MAIL);
      const context = await newContext(browser);
      const tab = await context.newPage();
      const violations: string[] = [];
      tab.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      try {
        await tab.goto(mailbox.url);
        const frame = tab.frameLocator('iframe');
        await eventually(async () => expect(await frame.locator('#greeting').textContent()).toBe('A new booking'));
        const ran = await tab
          .frames()[1]!
          .evaluate(() => (globalThis as unknown as PageGlobals & { document: { body: { dataset: Record<string, string> } } }).document.body.dataset.ran);
        expect(ran).toBeUndefined();

        await transport.sendMail({ ...BOOKING_MAIL, subject: 'A second booking' });

        // The page's own poll (allowed by its hash) reloads it.
        await eventually(async () => expect(await tab.locator('article h2').first().textContent()).toBe('A second booking'));
        expect(await tab.locator('article').count()).toBe(2);
        expect(violations).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
