// A throwaway PostgreSQL database for a benchmark: created on the server BENCH_POSTGRES_URL names
// (by default the local one the tests use), dropped by cleanUp() whatever happens.

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { stopAtCleanUp } from './processes.mjs';

/** The maintenance database of the server to benchmark on. */
export const BENCH_POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function onMaintenanceDatabase(statement) {
  const client = new pg.Client({ connectionString: BENCH_POSTGRES_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Creates clinic_bench_<random> and registers its DROP (WITH (FORCE), so the server's pooled
 * connections do not hold it) for cleanUp(). Answers { url } or, when the server cannot be reached,
 * { unavailable } with the reason (no password: the URL's host and port only).
 */
export async function createBenchDatabase() {
  const name = `clinic_bench_${randomBytes(6).toString('hex')}`;
  const server = new URL(BENCH_POSTGRES_URL);
  try {
    await onMaintenanceDatabase(`create database ${name}`);
  } catch (error) {
    return { unavailable: `PostgreSQL at ${server.host} cannot be used: ${error instanceof Error ? error.message : String(error)}` };
  }
  stopAtCleanUp(() => onMaintenanceDatabase(`drop database if exists ${name} with (force)`));
  server.pathname = `/${name}`;
  return { url: server.href };
}
