import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BookAppointmentResponse } from '../../../contract/index.js';
import { servicesRequired } from '../../support/services.js';
import { nextWeekdayInLondon } from '../support/future-slot.js';
import { ownPostgres, postgresBinDir, type OwnPostgres } from '../support/own-postgres.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { appointmentIdsIn, authHeaders, seedDatabase } from '../support/seed-database.js';
import { TEST_ENGINE } from '../support/test-database.js';
import { validBooking } from '../support/test-server.js';

// PostgreSQL only, and once per run (the postgres project): each fault is dealt to a cluster of this
// file's own (initdb into a temporary folder, a free port), never to the machine's shared one. Without
// initdb and pg_ctl the suite is skipped, unless REQUIRE_SERVICES=1 (CI), where it fails.
const binDir = postgresBinDir();

/** The server's own sessions, by the application_name its pool sets (server/db/postgres.ts). */
const SERVER_SESSIONS = 'clinic-api';

const UNAVAILABLE = { success: false, error_code: 'database_unavailable' };

interface Answer {
  status: number;
  body: { success?: boolean; error_code?: string };
}

/**
 * Clients booking without pause, each booking a new patient at the same time
 * without a dentist (any number fit), until stopped: what was acknowledged,
 * what was refused, and any request that got no answer at all.
 */
class BookingBurst {
  readonly acknowledged: number[] = [];
  readonly refused: Answer[] = [];
  readonly unanswered: unknown[] = [];
  private stopped = false;
  private readonly running: Promise<void[]>;

  constructor(api: string, headers: Record<string, string>, clients = 8) {
    const date = nextWeekdayInLondon();
    const client = async (n: number) => {
      for (let round = 0; !this.stopped; round++) {
        const body = JSON.stringify(validBooking({ appointment_date: date, appointment_time: '11:00', patient_name: `Burst ${n}-${round}` }));
        try {
          // Bounded, so a request that would wait forever fails the test instead of hanging it.
          const res = await fetch(`${api}/appointments/book`, { method: 'POST', headers, body, signal: AbortSignal.timeout(30_000) });
          const answer = { status: res.status, body: (await res.json()) as Answer['body'] };
          if (answer.status === 200) this.acknowledged.push(BookAppointmentResponse.parse(answer.body).data.appointment_id);
          else {
            this.refused.push(answer);
            // While the database is down, refusals come at once: no need to spin.
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        } catch (error) {
          this.unanswered.push(error);
          return;
        }
      }
    };
    this.running = Promise.all(Array.from({ length: clients }, (_, n) => client(n)));
  }

  /** Resolves once `count` more bookings than now have been acknowledged. */
  acknowledgedMore(count: number): Promise<void> {
    const target = this.acknowledged.length + count;
    return this.until(() => this.acknowledged.length >= target, `${count} more acknowledged bookings`);
  }

  /** Resolves once `count` more refusals than now have come. */
  refusedMore(count: number): Promise<void> {
    const target = this.refused.length + count;
    return this.until(() => this.refused.length >= target, `${count} more refusals`);
  }

  /** Waits for `condition`; fails at once, saying why, when a request went unanswered (the server died). */
  private async until(condition: () => boolean, what: string): Promise<void> {
    for (let waited = 0; !condition(); waited += 50) {
      if (this.unanswered.length > 0) throw new Error(`waiting for ${what}, a request got no answer: ${String(this.unanswered[0])}`);
      if (waited > 60_000) throw new Error(`waited a minute for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }
}

/** The server's log lines that are JSON (all of them, unless something crashed). */
function logLines(server: ServerProcess): { level?: number; msg?: string; err?: { stack?: string } }[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level?: number; msg?: string; err?: { stack?: string } });
}

describe.runIf(TEST_ENGINE === 'postgres' && (binDir !== undefined || servicesRequired()))(
  'the server on a PostgreSQL that restarts, ends its sessions or freezes',
  { timeout: 120_000 },
  () => {
    let cluster: OwnPostgres;
    let server: ServerProcess;
    let headers: Record<string, string>;
    let burst: BookingBurst | undefined;

    const get = (path: string) => fetch(new URL(path, server.api), { signal: AbortSignal.timeout(30_000) });
    const readiness = async () => (await get('/readyz')).status;

    beforeAll(async () => {
      if (binDir === undefined) throw new Error('initdb and pg_ctl not found under /usr/lib/postgresql/*/bin (set TEST_POSTGRES_BIN)');
      cluster = await ownPostgres(binDir);
      const keys = await seedDatabase(cluster.url);
      server = await startServerProcess({
        DATABASE_URL: cluster.url,
        API_RATE_LIMIT: '1000000',
        // Short, so the frozen cluster's tests take seconds.
        DATABASE_CONNECT_TIMEOUT_MS: '1000',
        DATABASE_STATEMENT_TIMEOUT_MS: '1000',
      });
      headers = await authHeaders(server.api, keys);
    }, 120_000);

    afterEach(async () => {
      // A failed test leaves nothing frozen or stopped for the next one.
      await burst?.stop();
      burst = undefined;
      cluster.thaw();
    });

    afterAll(async () => {
      server?.child.kill('SIGKILL');
      await cluster?.remove();
    });

    /** What every test ends by checking: the process is up, nothing was answered but 200 or 503 database_unavailable, nothing acknowledged is missing. */
    async function expectNothingBrokenOrLost(finished: BookingBurst): Promise<void> {
      expect(server.child.exitCode, server.output().slice(-3000)).toBeNull();
      expect(finished.unanswered).toEqual([]);
      for (const answer of finished.refused) {
        expect(answer.status).toBe(503);
        expect(answer.body).toMatchObject(UNAVAILABLE);
      }
      const stored = await appointmentIdsIn(cluster.url);
      expect(finished.acknowledged.filter((id) => !stored.has(id))).toEqual([]);
      // One line per outage at most (once a minute), never a stack: no line carries one.
      expect(logLines(server).filter((line) => line.err?.stack !== undefined)).toEqual([]);
    }

    it('stays up through a fast shutdown and restart: 503 while down, bookings again after, none acknowledged lost', async () => {
      burst = new BookingBurst(server.api, headers);
      await burst.acknowledgedMore(30);

      await cluster.stopFast();

      await burst.refusedMore(10);
      expect(await readiness()).toBe(503);
      expect((await get('/healthz')).status).toBe(200);
      const down = await get('/readyz');
      expect(await down.json()).toMatchObject({ ...UNAVAILABLE, message: expect.any(String) });

      await cluster.start();

      await expect.poll(readiness, { timeout: 30_000, interval: 100 }).toBe(200);
      await burst.acknowledgedMore(30);
      const finished = burst;
      await finished.stop();
      await expectNothingBrokenOrLost(finished);
      expect(logLines(server).filter((line) => line.level === 50).map((line) => line.msg)).toEqual([
        'database unavailable: answering 503 database_unavailable',
      ]);
    });

    it('stays up when every session of the server is terminated during a burst', async () => {
      burst = new BookingBurst(server.api, headers);
      await burst.acknowledgedMore(30);

      expect(await cluster.terminateBackends(SERVER_SESSIONS)).toBeGreaterThan(0);
      await burst.acknowledgedMore(30);
      expect(await cluster.terminateBackends(SERVER_SESSIONS)).toBeGreaterThan(0);

      await burst.acknowledgedMore(30);
      const finished = burst;
      await finished.stop();
      await expectNothingBrokenOrLost(finished);
    });

    it('stays up when one of its backends is killed and PostgreSQL restarts every session to recover', async () => {
      burst = new BookingBurst(server.api, headers);
      await burst.acknowledgedMore(30);

      await cluster.killBackend(SERVER_SESSIONS);

      await expect.poll(readiness, { timeout: 30_000, interval: 100 }).toBe(200);
      await burst.acknowledgedMore(30);
      const finished = burst;
      await finished.stop();
      await expectNothingBrokenOrLost(finished);
    });

    it('answers 503 after the timeouts while PostgreSQL is frozen, /readyz 503, and serves again once it thaws', async () => {
      burst = new BookingBurst(server.api, headers, 4);
      await burst.acknowledgedMore(20);

      cluster.freeze();
      try {
        // Queries on open connections give up at the statement timeout (and its grace), new
        // connections at the connection timeout: every client gets its answer, none waits forever.
        await burst.refusedMore(8);
        expect(await readiness()).toBe(503);
        expect((await get('/healthz')).status).toBe(200);
      } finally {
        cluster.thaw();
      }

      await expect.poll(readiness, { timeout: 30_000, interval: 100 }).toBe(200);
      await burst.acknowledgedMore(20);
      const finished = burst;
      await finished.stop();
      await expectNothingBrokenOrLost(finished);
    });

    it('answers 503 for a booking that waits on a lock past the statement timeout, then books again', async () => {
      const holder = new pg.Client({ connectionString: cluster.url });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query('lock table appointments in access exclusive mode');
        burst = new BookingBurst(server.api, headers, 2);
        await burst.refusedMore(4);
        await holder.query('rollback');
        await burst.acknowledgedMore(10);
      } finally {
        await holder.end();
      }
      const finished = burst;
      await finished.stop();
      await expectNothingBrokenOrLost(finished);
    });
  },
);
