// `npm run demo:sites` (after `npm run build`): one BFF serving two clinics' websites, as an agency runs it
// (docs/sites.md). The reference server holds two demo clinics; the BFF holds one site for each in its own
// database, their app secrets encrypted under SITE_SECRETS_KEY; two clinic pages on two origins each embed
// their own site with the usual two lines. Seeded on the first run only (data/demo-sites/, git-ignored);
// Ctrl-C stops everything.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { DemoRunner } from './support/demo-stack.mjs';
import { clinicPage } from './support/demo-sites-page.mjs';

// Each may be moved: DEMO_SITES_DIR, PORT (the BFF), SERVER_PORT and PAGE_PORTS (the two clinic pages).
const DIR = process.env.DEMO_SITES_DIR ?? 'data/demo-sites';
const STATE = `${DIR}/state.json`;
const ports = {
  bff: Number(process.env.PORT ?? 8180),
  server: Number(process.env.SERVER_PORT ?? 8200),
  pages: (process.env.PAGE_PORTS ?? '8181,8182').split(',').map(Number),
};
const serverUrl = `http://127.0.0.1:${ports.server}`;
const bffOrigin = `http://127.0.0.1:${ports.bff}`;
const clinicDatabase = `file:${DIR}/clinic.db`;
const bffDatabase = `file:${DIR}/bff.db`;
/** The two clinics: which demo clinic the server seeds, and the page that embeds it. */
const clinics = [
  { name: 'Bright Smile Dental', seed: [], port: ports.pages[0], phone: '+44 20 7946 0958' },
  { name: 'Harbour Family Dental', seed: ['--second'], port: ports.pages[1], phone: '+44 131 496 0123' },
];
const originsOf = (port) => [`http://localhost:${port}`, `http://127.0.0.1:${port}`];

const demo = new DemoRunner('npm run demo:sites');
for (const [port, name] of [[ports.bff, 'PORT'], [ports.server, 'SERVER_PORT'], ...ports.pages.map((p) => [p, 'PAGE_PORTS'])]) {
  await demo.ensurePortFree(String(port), name);
}

const state = existsSync(STATE) ? JSON.parse(readFileSync(STATE, 'utf8')) : seed();

demo.run('reference server', ['dist/server/main.js'], { PORT: String(ports.server), DATABASE_URL: clinicDatabase, PUBLIC_URL: serverUrl });
await demo.waitForHealth(`${serverUrl}/healthz`);
demo.run('BFF', ['dist/bff/main.js'], {
  PORT: String(ports.bff),
  PUBLIC_ORIGIN: bffOrigin,
  // The BFF's own database and the key its sites' secrets are sealed with: with it, the sites are served at /s/{site_id}.
  DATABASE_URL: bffDatabase,
  SITE_SECRETS_KEY: state.siteSecretsKey,
  BOOKING_REF_SECRET: state.bookingRefSecret,
  // The env clinic (the default site at /api) is the first clinic again; the pages use the sites.
  UPSTREAM_URL: `${serverUrl}/api/v1`,
  APP_KEY: state.clinics[0].app_key,
  APP_SECRET_KEY: state.clinics[0].app_secret_key,
  ALLOWED_ORIGINS: originsOf(clinics[0].port).join(','),
});
await demo.waitForHealth(`${bffOrigin}/readyz`);

clinics.forEach((clinic, i) => {
  const html = clinicPage({ ...clinic, widgetUrl: `${bffOrigin}/s/${state.sites[i]}/widget/clinic-booking.js` });
  createServer((req, res) => {
    if (req.url !== '/') return res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' }).end(html);
  }).listen(clinic.port, '127.0.0.1');
});

demo.started(`
clinic-booking, two sites on one BFF (${bffOrigin}):
${clinics.map((c, i) => `  ${c.name.padEnd(22)} http://localhost:${c.port}/   site ${state.sites[i]}`).join('\n')}
  list the sites         SITE_SECRETS_KEY=… DATABASE_URL=${bffDatabase} npm run --silent bff -- sites list
                         (the key is in ${STATE})
Press Ctrl-C to stop.`);

/**
 * The first run: two demo clinics in the server's database, each with a key pair, and one site for each in
 * the BFF's, through the two CLIs as a deployer would. The state file keeps what later runs need.
 */
function seed() {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const seeded = clinics.map((clinic) =>
    cli(['dist/server/cli/main.js', 'seed-demo', ...clinic.seed], { DATABASE_URL: clinicDatabase, PUBLIC_URL: serverUrl }, `seed ${clinic.name}`),
  );
  const siteSecretsKey = randomBytes(32).toString('base64');
  const sites = clinics.map((clinic, i) => {
    // The site file holds the app secret in plain text: written private, read by the CLI, deleted at once.
    const file = `${DIR}/site-${i}.json`;
    writeFileSync(
      file,
      JSON.stringify({
        name: clinic.name,
        upstream_url: `${serverUrl}/api/v1`,
        app_key: seeded[i].app_key,
        app_secret_key: seeded[i].app_secret_key,
        allowed_origins: originsOf(clinic.port),
        time_zone: 'Europe/London',
      }),
      { mode: 0o600 },
    );
    try {
      // The demo's upstream is on loopback, which `sites create` refuses unless the operator allows it.
      const env = { DATABASE_URL: bffDatabase, SITE_SECRETS_KEY: siteSecretsKey, OUTBOUND_ALLOWLIST: new URL(serverUrl).host };
      return cli(['dist/bff/cli/main.js', 'sites', 'create', '--file', file], env, `create the site of ${clinic.name}`).site_id;
    } finally {
      rmSync(file, { force: true });
    }
  });
  const made = { siteSecretsKey, bookingRefSecret: randomBytes(32).toString('base64url'), clinics: seeded, sites };
  writeFileSync(STATE, JSON.stringify(made, null, 2), { mode: 0o600 });
  console.log(`Seeded two demo clinics and their sites in ${DIR}/.`);
  return made;
}

/** Runs a CLI (node …args) and returns its JSON; a failure is one line and the end of the demo. */
function cli(args, env, what) {
  const run = spawnSync(process.execPath, args, { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (run.status !== 0) demo.fail(`could not ${what}: ${run.stderr.trim().split('\n').at(-1) || 'unknown error'}`);
  return JSON.parse(run.stdout);
}
