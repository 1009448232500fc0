// `npm start` (after `npm run build`): the whole demo. Seeds the demo clinic and
// a key pair on the first run only (kept in the database and in a git-ignored
// .env), starts the reference server and the BFF together, prints the demo URL,
// and stops both on Ctrl-C. Any start-up failure is one line, not a stack trace.
import { bffSettings, DemoRunner, demoSettings, metricsBannerLine, metricsPorts, serviceSettings } from './support/demo-stack.mjs';

const settings = demoSettings();
const { serverPort, bffPort, databaseUrl, serverUrl } = settings;
const demo = new DemoRunner('npm start');

await demo.ensurePortFree(serverPort, 'SERVER_PORT');
await demo.ensurePortFree(bffPort, 'PORT');
const keys = demo.ensureDemoClinic(settings, ['dist/server/cli/main.js']);
const shared = serviceSettings(settings);
// METRICS_PORT: the server's, and METRICS_PORT+1 the BFF's (metricsPorts); checked before either starts.
const metrics = metricsPorts(shared);
await demo.ensureMetricsPortsFree(metrics);
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

demo.started(`
clinic-booking demo is running:
  demo page      http://localhost:${bffPort}/
  API reference  ${serverUrl}/api/v1/docs${metricsBannerLine(metrics)}
Press Ctrl-C to stop.`);
