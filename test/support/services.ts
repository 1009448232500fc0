import { Socket } from 'node:net';

/**
 * The outside services some suites need, where the tests find them. Probed once per
 * run by vitest.config.ts (`probeServices`), never by each file: an unreachable
 * service is said in one line, and its suites are skipped, unless REQUIRE_SERVICES=1
 * (set by .ci/run), which runs them anyway so that they fail, and CI can never pass
 * without the services.
 */
export const SERVICES = {
  postgres: { name: 'PostgreSQL', url: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  redis: { name: 'Redis', url: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' },
} as const;

export type ServiceName = keyof typeof SERVICES;

/** For each service: true when its suites run (reachable, or REQUIRE_SERVICES=1). */
export type ServicesToRun = Record<ServiceName, boolean>;

export const servicesRequired = (env: NodeJS.ProcessEnv = process.env): boolean => env.REQUIRE_SERVICES === '1';

/** True when a TCP connection to the URL's host and port opens within `timeoutMs`. */
export function reachable(url: string, timeoutMs = 1000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(Number(port), hostname, () => done(true));
  });
}

/**
 * Probes every service once. Writes ONE line when any cannot be reached, naming
 * them and what happens to their suites; answers which suites run.
 */
export async function probeServices(
  log: (line: string) => void = (line) => console.log(line),
  env: NodeJS.ProcessEnv = process.env,
): Promise<ServicesToRun> {
  const names = Object.keys(SERVICES) as ServiceName[];
  const up = await Promise.all(names.map((name) => reachable(SERVICES[name].url)));
  const down = names.filter((_, index) => !up[index]);
  const required = servicesRequired(env);
  if (down.length > 0) {
    const which = down.map((name) => `${SERVICES[name].name} (${new URL(SERVICES[name].url).host})`).join(', ');
    log(
      required
        ? `services: ${which} cannot be reached; REQUIRE_SERVICES=1, so their suites run and fail`
        : `services: ${which} cannot be reached; their suites are skipped (REQUIRE_SERVICES=1 makes this a failure)`,
    );
  }
  return Object.fromEntries(names.map((name, index) => [name, up[index] || required])) as ServicesToRun;
}
