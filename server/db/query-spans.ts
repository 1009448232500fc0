import { performance } from 'node:perf_hooks';
import { SpanKind, SpanStatusCode, type Attributes } from '@opentelemetry/api';
import type { KyselyConfig, LogEvent, OperationNode } from 'kysely';
import { errorTypeOf } from '../../platform/tracing/client-spans.js';
import { tracer, tracing } from '../../platform/tracing/tracer.js';
import type { Engine } from './engine.js';

/** db.system by engine, as OpenTelemetry's database conventions name them. */
const DB_SYSTEM: Record<Engine, string> = { sqlite: 'sqlite', postgres: 'postgresql' };

/** The statement of each Kysely query kind. */
const OPERATIONS: Partial<Record<OperationNode['kind'], string>> = {
  SelectQueryNode: 'SELECT',
  InsertQueryNode: 'INSERT',
  UpdateQueryNode: 'UPDATE',
  DeleteQueryNode: 'DELETE',
  MergeQueryNode: 'MERGE',
};

/**
 * What a Kysely made with it adds when traces are on: a client span for each
 * query, the child of whatever span was active when it was sent (a request's,
 * or none at start-up). Nothing at all when they are off, so Kysely's own
 * timing of queries is not switched on either.
 *
 * Kysely's `log` hook, called once each query has been answered (or has
 * failed) with how long it took: the one place every statement of both
 * engines passes, BEGIN and COMMIT included. The span records the engine, the
 * statement (SELECT, INSERT, BEGIN...) and the table, never the SQL text or
 * its parameters: the parameters are patients' names and phones, and the
 * text, though Kysely sends every value as a parameter, is not worth the
 * checking that no literal ever holds one. A failure records the error's code
 * (SQLITE_BUSY, 23505), never its message, which may quote a value.
 */
export function querySpans(engine: Engine): Pick<KyselyConfig, 'log'> {
  if (!tracing()) return {};
  const system = DB_SYSTEM[engine];
  return {
    log(event: LogEvent) {
      const operation = operationOf(event.query.query, event.query.sql);
      const table = tableOf(event.query.query);
      const attributes: Attributes = { 'db.system': system, 'db.operation': operation, ...(table ? { 'db.sql.table': table } : {}) };
      const answered = performance.now();
      const span = tracer.startSpan(table ? `${operation} ${table}` : operation, {
        kind: SpanKind.CLIENT,
        startTime: answered - event.queryDurationMillis,
        attributes,
      });
      if (event.level === 'error') {
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.setAttribute('error.type', errorTypeOf(event.error));
      }
      span.end(answered);
    },
  };
}

/** SELECT, INSERT, ...; a raw statement's first word (BEGIN, COMMIT, PRAGMA), or `_OTHER`. */
function operationOf(node: OperationNode, sql: string): string {
  const known = OPERATIONS[node.kind];
  if (known) return known;
  const word = /^\s*([A-Za-z]+)/.exec(sql)?.[1];
  return word ? word.toUpperCase() : '_OTHER';
}

/** The table a query reads or writes first, when Kysely's tree says it. */
function tableOf(node: OperationNode): string | undefined {
  const query = node as { from?: { froms?: OperationNode[] }; into?: OperationNode; table?: OperationNode };
  return nameOf(query.into ?? query.table ?? query.from?.froms?.[0]);
}

function nameOf(node: OperationNode | undefined): string | undefined {
  if (!node) return undefined;
  const table = node as { kind: string; node?: OperationNode; table?: { identifier?: { name?: unknown } } };
  if (table.kind === 'AliasNode') return nameOf(table.node);
  const name = table.kind === 'TableNode' ? table.table?.identifier?.name : undefined;
  return typeof name === 'string' ? name : undefined;
}
