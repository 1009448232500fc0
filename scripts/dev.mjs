// `npm run dev`: the demo, for people working on the widget. The reference
// server and the BFF run from source (tsx) and restart when a file they load
// changes (node --watch); Vite serves the widget from source, and the BFF
// proxies /widget/* and Vite's HMR websocket to it (WIDGET_DEV_URL), so the
// demo page reloads as soon as a widget file is saved. Seeds the demo clinic on
// the first run exactly as `npm start` does (the same data/ and .env), needs no
// build, and Ctrl-C stops everything. SERVER_PORT, PORT, VITE_PORT and
// DATABASE_URL move it.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { bffSettings, DemoRunner, demoSettings, metricsBannerLine, metricsPorts, serviceSettings } from './support/demo-stack.mjs';

const require = createRequire(import.meta.url);
const VITE = join(dirname(require.resolve('vite/package.json')), 'bin/vite.js');
/**
 * Restarts on a change to any file the entry imports, and keeps the screen:
 * three services share the terminal. node --watch rather than tsx watch: on
 * Ctrl-C the terminal signals every process and this script signals its
 * children again; tsx watch takes a second signal as "force kill", node --watch
 * just passes it on, so both services still drain and close cleanly.
 */
const watch = (entry) => ['--watch', '--watch-preserve-output', '--import', 'tsx', entry];

const settings = demoSettings();
const { serverPort, bffPort, databaseUrl, serverUrl } = settings;
const vitePort = process.env.VITE_PORT ?? '5173';
const viteUrl = `http://127.0.0.1:${vitePort}`;
const dev = new DemoRunner('npm run dev');

await dev.ensurePortFree(serverPort, 'SERVER_PORT');
await dev.ensurePortFree(bffPort, 'PORT');
await dev.ensurePortFree(vitePort, 'VITE_PORT');
const keys = dev.ensureDemoClinic(settings, ['--import', 'tsx', 'server/cli/main.ts']);
const shared = serviceSettings(settings);
// METRICS_PORT: the server's, and METRICS_PORT+1 the BFF's (metricsPorts); checked before either starts.
const metrics = metricsPorts(shared);
await dev.ensureMetricsPortsFree(metrics);
dev.run('reference server', watch('server/main.ts'), {
  ...shared,
  PORT: serverPort,
  DATABASE_URL: databaseUrl,
  PUBLIC_URL: shared.PUBLIC_URL ?? serverUrl,
  ...(metrics && { METRICS_PORT: metrics.server }),
});
// vite.config.ts: base /widget/ and the /widget/clinic-booking.js entry, in serve mode only.
dev.run('widget dev server (Vite)', [VITE, '--port', vitePort, '--clearScreen', 'false'], process.env, { stdin: 'pipe' });
await dev.waitForHealth(`${serverUrl}/healthz`, 30_000);
dev.run('BFF', watch('bff/main.ts'), {
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
  PUBLIC_ORIGIN: shared.PUBLIC_ORIGIN ?? `http://127.0.0.1:${bffPort}`,
  WIDGET_DEV_URL: viteUrl,
});
await dev.waitForHealth(`${viteUrl}/widget/@vite/client`, 30_000);
await dev.waitForHealth(`http://127.0.0.1:${bffPort}/readyz`, 30_000);

dev.started(`
clinic-booking dev is running (server and BFF restart on change, the widget reloads on save):
  demo page      http://127.0.0.1:${bffPort}/
  API reference  ${serverUrl}/api/v1/docs
  widget         Vite at ${viteUrl}/widget/, proxied by the BFF at /widget/${metricsBannerLine(metrics)}
Press Ctrl-C to stop.`);
