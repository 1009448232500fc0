import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Engine } from '../../../../platform/database/database-url.js';
import { SERVICES } from '../../../support/services.js';
import { serviceAvailable } from '../../../support/service-available.js';

/**
 * One test's own BFF database, as test/server/support/test-database.ts makes
 * the server's: a SQLite file in a fresh folder, or a fresh PostgreSQL
 * database dropped afterwards. The BFF's suites run in the sqlite project only,
 * so each sites test file runs itself once per engine (ENGINES).
 */
export interface SitesTestDatabase {
  engine: Engine;
  /** What DATABASE_URL says to reach it. */
  url: string;
  /** The SQLite file's path (its -wal beside it); undefined on PostgreSQL. */
  file?: string;
  remove(): Promise<void>;
}

/** The engines this run tests on: SQLite always, PostgreSQL when its suites run (test/support/services.ts). */
export const ENGINES: Engine[] = serviceAvailable('postgres') ? ['sqlite', 'postgres'] : ['sqlite'];

async function onMaintenanceDatabase(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVICES.postgres.url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function sitesTestDatabase(engine: Engine): Promise<SitesTestDatabase> {
  if (engine === 'sqlite') {
    const folder = mkdtempSync(join(tmpdir(), 'bff-sites-test-'));
    const file = join(folder, 'bff.db');
    return { engine, url: `file:${file}`, file, remove: async () => rmSync(folder, { recursive: true, force: true }) };
  }
  const name = `bff_sites_test_${randomBytes(6).toString('hex')}`;
  await onMaintenanceDatabase(`create database ${name}`);
  const url = new URL(SERVICES.postgres.url);
  url.pathname = `/${name}`;
  let removed: Promise<void> | undefined;
  return { engine, url: url.href, remove: () => (removed ??= onMaintenanceDatabase(`drop database if exists ${name} with (force)`)) };
}
