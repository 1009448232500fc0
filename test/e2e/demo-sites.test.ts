import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { ensureServicesBuilt, REPO_ROOT } from './support/stack.js';

/** Runs scripts/demo-sites.mjs, what `npm run demo:sites` runs after building, in a folder of its own. */
function startDemoSites(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['scripts/demo-sites.mjs'], { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output, exited: new Promise((resolve) => child.on('exit', resolve)) };
}

describe('npm run demo:sites (scripts/demo-sites.mjs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clinic-demo-sites-'));
  let env: Record<string, string>;

  beforeAll(async () => {
    await ensureServicesBuilt();
    const [bff, server, pageA, pageB] = [await freePort(), await freePort(), await freePort(), await freePort()];
    env = { DEMO_SITES_DIR: dir, PORT: String(bff), SERVER_PORT: String(server), PAGE_PORTS: `${pageA},${pageB}` };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves two clinics from one BFF, each page embedding its own site, and stops everything on Ctrl-C', async () => {
    const demo = startDemoSites(env);
    try {
      for (let i = 0; i < 600 && !demo.output().includes('Press Ctrl-C') && demo.child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 100));
      expect(demo.output()).toContain('Seeded two demo clinics');
      const { sites } = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { sites: string[] };
      expect(sites).toHaveLength(2);
      const [pageA, pageB] = env.PAGE_PORTS!.split(',');
      const bff = `http://127.0.0.1:${env.PORT}`;

      const pages = [await (await fetch(`http://127.0.0.1:${pageA}/`)).text(), await (await fetch(`http://127.0.0.1:${pageB}/`)).text()];
      expect(pages[0]).toContain(`${bff}/s/${sites[0]}/widget/clinic-booking.js`);
      expect(pages[1]).toContain(`${bff}/s/${sites[1]}/widget/clinic-booking.js`);

      const nameOf = async (site: string, origin: string) => {
        const res = await fetch(`${bff}/s/${site}/api/organization`, { headers: { origin } });
        return { name: ((await res.json()) as { data: { name: string } }).data.name, allowed: res.headers.get('access-control-allow-origin') };
      };
      expect(await nameOf(sites[0]!, `http://localhost:${pageA}`)).toEqual({ name: 'Bright Smile Dental', allowed: `http://localhost:${pageA}` });
      expect(await nameOf(sites[1]!, `http://localhost:${pageB}`)).toEqual({ name: 'Harbour Family Dental', allowed: `http://localhost:${pageB}` });
      // Each page's origin is allowed by its own site only.
      expect((await nameOf(sites[1]!, `http://localhost:${pageA}`)).allowed).toBeNull();
      // No secret left on disk but the state file (private) and the BFF's database (sealed).
      expect(readFileSync(join(dir, 'bff.db')).includes(Buffer.from('cs_'))).toBe(false);
    } finally {
      demo.child.kill('SIGINT');
    }
    expect(await demo.exited).toBe(0);
    await expect(fetch(`http://127.0.0.1:${env.PORT}/healthz`)).rejects.toThrow();
    await expect(fetch(`http://127.0.0.1:${env.SERVER_PORT}/healthz`)).rejects.toThrow();
  });
});
