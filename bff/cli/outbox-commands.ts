import { parseArgs } from 'node:util';
import type { Clock } from '../../platform/clock.js';
import { OUTBOX_STATES, type OutboxState } from '../outbox/outbox-message.js';
import type { OutboxEntry, OutboxStore } from '../outbox/outbox-store.js';
import { CliError } from './sites-commands.js';

/**
 * `bff outbox <command>`: what an operator sees of the outbox and does to it
 * (docs/operations.md). A message is shown by its id, site, channel, event
 * type, state and tries, never by its content: the payload names a patient.
 */

export interface OutboxCliDeps {
  store: OutboxStore;
  clock: Clock;
  /** One audit line per change: what, when, how many; never a message's content. */
  audit: (entry: { event: string; at: string; [detail: string]: unknown }) => void;
}

export const OUTBOX_USAGE = `usage: bff outbox <command>
  outbox list [--state pending|delivered|dead] [--limit N]    the newest messages, without their content
  outbox retry --id ID | --dead                                bring one dead message, or every one, back to be delivered
  outbox purge --state delivered|dead [--older-than-hours N]   delete finished messages (all, or finished N hours ago)`;

/** How many messages `list` shows unless told: a screenful. */
const LIST_DEFAULT = 50;
const LIST_MAX = 1000;
/** purge's --older-than-hours: up to ten years, so the arithmetic stays far from unsafe integers. */
const PURGE_MAX_HOURS = 87_600;

/** What `list` prints for one message: times in ISO 8601; when it is next tried only while it is pending. */
export interface OutboxListing {
  id: string;
  site_id: string;
  channel: string;
  event_type: string;
  state: OutboxState;
  attempts: number;
  created_at: string;
  next_attempt_at: string | null;
  finished_at: string | null;
  last_error: string | null;
}

type Command = (args: string[]) => (deps: OutboxCliDeps) => Promise<unknown>;

/** Recognises the command and checks its flags before the database is opened, so a typo creates no file. */
export function parseOutboxCommand(argv: string[]): (deps: OutboxCliDeps) => Promise<unknown> {
  const [group, action, ...args] = argv;
  const parse = group === 'outbox' && action ? COMMANDS[action] : undefined;
  if (!parse) {
    const named = [group, action].filter(Boolean).join(' ');
    throw new CliError(named && action ? `unknown command: ${named} (outbox ${Object.keys(COMMANDS).join(', ')})` : OUTBOX_USAGE);
  }
  return parse(args);
}

const COMMANDS: Record<string, Command> = {
  list: (args) => {
    const { values } = parseArgs({ args, options: { state: { type: 'string' }, limit: { type: 'string' } }, strict: true });
    const state = values.state === undefined ? undefined : stateOf(values.state, OUTBOX_STATES);
    const limit = values.limit === undefined ? LIST_DEFAULT : wholeNumber(values.limit, '--limit', 1, LIST_MAX);
    return async ({ store }) => (await store.list({ ...(state ? { state } : {}), limit })).map(listingOf);
  },
  retry: (args) => {
    const { values } = parseArgs({ args, options: { id: { type: 'string' }, dead: { type: 'boolean' } }, strict: true });
    if ((values.id === undefined) === (values.dead !== true)) throw new CliError('outbox retry takes --id ID or --dead (every dead message), one of them');
    const id = values.id;
    if (id !== undefined) {
      if (id === '') throw new CliError('--id is empty');
      return async ({ store, clock, audit }) => {
        const now = clock.now();
        if ((await store.retry({ id }, now.getTime())) === 0) {
          const entry = await store.get(id);
          throw new CliError(entry ? `message ${id} is ${entry.state}, not dead: only dead messages are retried` : `unknown message: ${JSON.stringify(id).slice(0, 80)}`);
        }
        audit({ event: 'outbox.retried', at: now.toISOString(), message_id: id });
        return { retried: 1 };
      };
    }
    return async ({ store, clock, audit }) => {
      const now = clock.now();
      const retried = await store.retry({ allDead: true }, now.getTime());
      audit({ event: 'outbox.retried', at: now.toISOString(), dead: retried });
      return { retried };
    };
  },
  purge: (args) => {
    const { values } = parseArgs({ args, options: { state: { type: 'string' }, 'older-than-hours': { type: 'string' } }, strict: true });
    if (values.state === undefined) throw new CliError('--state is required: delivered or dead (pending messages are never purged)');
    const state = stateOf(values.state, ['delivered', 'dead'] as const);
    const hours = values['older-than-hours'];
    const olderThanMs = hours === undefined ? undefined : wholeNumber(hours, '--older-than-hours', 0, PURGE_MAX_HOURS) * 3600_000;
    return async ({ store, clock, audit }) => {
      const now = clock.now();
      const purged = await store.purge({ state, ...(olderThanMs === undefined ? {} : { olderThanMs }) }, now.getTime());
      audit({ event: 'outbox.purged', at: now.toISOString(), state, ...(hours === undefined ? {} : { older_than_hours: Number(hours) }), purged });
      return { purged };
    };
  },
};

function stateOf<S extends string>(value: string, allowed: readonly S[]): S {
  if ((allowed as readonly string[]).includes(value)) return value as S;
  throw new CliError(`--state must be ${allowed.join(', ')}; not ${JSON.stringify(value).slice(0, 40)}`);
}

function wholeNumber(value: string, flag: string, min: number, max: number): number {
  const number = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!(number >= min && number <= max)) throw new CliError(`${flag} must be a whole number from ${min} to ${max}; not ${JSON.stringify(value).slice(0, 40)}`);
  return number;
}

const iso = (ms: number) => new Date(ms).toISOString();

function listingOf(entry: OutboxEntry): OutboxListing {
  return {
    id: entry.id,
    site_id: entry.siteId,
    channel: entry.channel,
    event_type: entry.eventType,
    state: entry.state,
    attempts: entry.attempts,
    created_at: iso(entry.createdAt),
    next_attempt_at: entry.state === 'pending' ? iso(entry.nextAttemptAt) : null,
    finished_at: entry.finishedAt === null ? null : iso(entry.finishedAt),
    last_error: entry.lastError,
  };
}
