// `npm start` (after `npm run build`): the whole demo. Seeds the demo clinic and
// a key pair on the first run only (kept in the database and in a git-ignored
// .env), starts the clinic's mailbox, the reference server and the BFF
// together, prints the demo URL, and stops them all on Ctrl-C. Any start-up
// failure is one line, not a stack trace.
import {
  bffSettings,
  demoMailSettings,
  DemoRunner,
  demoSettings,
  metricsBannerLine,
  metricsPorts,
  ownMailRelay,
  serviceSettings,
} from './support/demo-stack.mjs';

const settings = demoSettings();
const { serverPort, bffPort, databaseUrl, serverUrl, mailboxPort, mailboxSmtpPort } = settings;
const demo = new DemoRunner('npm start');
const demoUrl = `http://localhost:${bffPort}/`;

await demo.ensurePortFree(serverPort, 'SERVER_PORT');
await demo.ensurePortFree(bffPort, 'PORT');
// The clinic's e-mail goes to a mailbox of the demo's own (scripts/support/demo-mailbox.mjs), unless .env or
// the environment names a relay (SMTP_URL): then it goes there, and no mailbox is started.
const ownRelay = ownMailRelay(serviceSettings(settings));
if (!ownRelay) {
  await demo.ensurePortFree(mailboxPort, 'MAILBOX_PORT', "the clinic's mailbox");
  await demo.ensurePortFree(mailboxSmtpPort, 'MAILBOX_SMTP_PORT', "the clinic's mailbox, SMTP");
}
const keys = demo.ensureDemoClinic(settings, ['dist/server/cli/main.js']);
const shared = serviceSettings(settings);
// METRICS_PORT: the server's, and METRICS_PORT+1 the BFF's (metricsPorts); checked before either starts.
const metrics = metricsPorts(shared);
await demo.ensureMetricsPortsFree(metrics);
const mail = ownRelay ? {} : demoMailSettings(shared, mailboxSmtpPort);
if (!ownRelay) {
  await demo.startMailbox({ httpPort: Number(mailboxPort), smtpPort: Number(mailboxSmtpPort), demoUrl, address: mail.CLINIC_NOTIFY_EMAIL });
}
demo.run('reference server', ['dist/server/main.js'], {
  ...shared,
  PORT: serverPort,
  DATABASE_URL: databaseUrl,
  PUBLIC_URL: shared.PUBLIC_URL ?? serverUrl,
  ...(metrics && { METRICS_PORT: metrics.server }),
});
await demo.waitForHealth(`${serverUrl}/healthz`);
demo.run('BFF', ['dist/bff/main.js'], {
  ...bffSettings(shared),
  ...mail,
  PORT: bffPort,
  UPSTREAM_URL: `${serverUrl}/api/v1`,
  APP_KEY: keys.APP_KEY,
  APP_SECRET_KEY: keys.APP_SECRET_KEY,
  BOOKING_REF_SECRET: keys.BOOKING_REF_SECRET,
  BOOKING_REF_SECRET_PREVIOUS: keys.BOOKING_REF_SECRET_PREVIOUS ?? '',
  DEMO_PAGE: 'true',
  ...(metrics && { METRICS_PORT: metrics.bff }),
  // The demo URL printed below; CORS's own origin comes from here, never from a request's Host.
  PUBLIC_ORIGIN: shared.PUBLIC_ORIGIN ?? `http://localhost:${bffPort}`,
});
await demo.waitForHealth(`http://127.0.0.1:${bffPort}/readyz`);

const clinicAddress = shared.CLINIC_NOTIFY_EMAIL?.trim();
const mailLine = ownRelay
  ? `clinic's e-mail   through your SMTP_URL (${ownRelay.host}, from .env or the environment) ${clinicAddress ? `to ${clinicAddress}` : 'to nobody: CLINIC_NOTIFY_EMAIL is unset'}`
  : `clinic's mailbox  http://localhost:${mailboxPort}/`;
demo.started(`
clinic-booking demo is running:
  demo page         ${demoUrl}
  ${mailLine}
  API reference     ${serverUrl}/api/v1/docs${metricsBannerLine(metrics, 18)}
Press Ctrl-C to stop.`);
