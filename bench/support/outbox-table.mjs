// The outbox of a running BFF, read from its SQLite file (read-only; the BFF keeps writing it) and through
// the compiled CLI, as an operator reads it. Never the payload: it names a patient.

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { ROOT } from './processes.mjs';

const CLI_ENTRY = join(ROOT, 'dist/bff/cli/main.js');
const execFileAsync = promisify(execFile);

/** A read-only view of the outbox_messages table of the SQLite file at `path`. */
export function openOutboxTable(path) {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const columns = 'id, channel, state, attempts, created_at, finished_at, last_error';
  const rowsSince = db.prepare(`SELECT ${columns} FROM outbox_messages WHERE created_at >= ? ORDER BY created_at`);
  const countsSince = db.prepare('SELECT state, count(*) AS n FROM outbox_messages WHERE created_at >= ? GROUP BY state');
  const toRow = (row) => ({ ...row, created_at: Number(row.created_at), finished_at: row.finished_at === null ? null : Number(row.finished_at) });
  return {
    /** Every message queued at or after `since` (ms). */
    rowsSince: (since) => rowsSince.all(since).map(toRow),
    /** { pending, delivered, dead } of the messages queued at or after `since` (ms). */
    countsSince(since) {
      const counts = { pending: 0, delivered: 0, dead: 0 };
      for (const { state, n } of countsSince.all(since)) counts[state] = n;
      return counts;
    },
    close: () => db.close(),
  };
}

/** `bff outbox list --state dead` through the compiled CLI, on the BFF's database: the dead messages, as an operator lists them. */
export async function listDeadWithCli(databaseUrl) {
  const env = { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl };
  try {
    const { stdout } = await execFileAsync(process.execPath, [CLI_ENTRY, 'outbox', 'list', '--state', 'dead', '--limit', '1000'], { cwd: ROOT, env });
    return JSON.parse(stdout);
  } catch (error) {
    throw new Error(`bff outbox list failed: ${error.stderr?.trim() || error.message}`);
  }
}
