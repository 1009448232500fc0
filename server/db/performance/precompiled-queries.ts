import { createQueryId, type Compilable, type CompiledQuery, type RawBuilder, type RootOperationNode } from 'kysely';
import type { Db } from '../schema.js';

/** What a hot query's builder answers: one of Kysely's query builders, or a `sql` template. */
type Built = Compilable<unknown> | RawBuilder<unknown>;

/** The rows a query answers, as Kysely types them. */
export type RowOf<B extends Built> = B extends RawBuilder<infer R> ? R : B extends Compilable<infer R> ? R : never;

/**
 * A query of a booking's or a token check's hot path, defined once by name
 * where its store is, as Kysely builds it from the values it is sent with.
 * Its store runs it through HotQueries: compiled once per database
 * (PrecompiledQueries), or built and compiled by Kysely on every run
 * (BUILT_EACH_TIME, Kysely's plain way).
 *
 * The builder must send every value as a parameter, exactly as given: no
 * arithmetic or text made from one (compute it before, and pass the result),
 * and none that changes the SQL's shape (an `undefined` column, `is null`).
 * PrecompiledQueries refuses the first when it compiles; the guard test
 * (test/server/db/precompiled-queries.test.ts) catches the second.
 */
export interface HotQuery<V, B extends Built> {
  readonly name: string;
  readonly build: (db: Db, values: V) => B;
}

export function hotQuery<V, B extends Built>(name: string, build: (db: Db, values: V) => B): HotQuery<V, B> {
  return { name, build };
}

/** How the stores run their hot queries. */
export interface HotQueries {
  /** The rows `query` answers for `values`, on `db`: the database or one of its transactions. */
  rows<V, B extends Built>(db: Db, query: HotQuery<V, B>, values: V): Promise<RowOf<B>[]>;
}

/** Kysely's plain way: each query built and compiled afresh on every run (the switch off, and the CLI). */
export const BUILT_EACH_TIME: HotQueries = {
  async rows<V, B extends Built>(db: Db, query: HotQuery<V, B>, values: V): Promise<RowOf<B>[]> {
    return (await db.executeQuery(compileOn(db, query.build(db, values)))).rows as RowOf<B>[];
  },
};

/** What Kysely compiles `built` to on `db`'s dialect. */
export function compileOn<B extends Built>(db: Db, built: B): CompiledQuery<RowOf<B>> {
  return ('isRawBuilder' in built ? built.compile(db) : built.compile()) as CompiledQuery<RowOf<B>>;
}

/** A hot query compiled once: its SQL, and where each value goes among its parameters. */
interface Precompiled {
  readonly sql: string;
  readonly node: RootOperationNode;
  /** Kysely's parameters, the values' places included (filled per run). */
  readonly parameters: readonly unknown[];
  /** Each place in `parameters` that takes a value, and that value's name. */
  readonly places: readonly number[];
  readonly names: readonly string[];
}

/**
 * Building a query with Kysely's builders and compiling it to SQL was about
 * an eighth of the server's CPU under booking load, though a booking sends the
 * same few statements every time, and Kysely emits the same SQL for the same
 * builder whatever the values. Each hot query is compiled once per database
 * (on its first run, in this database's dialect) with a placeholder for each
 * value; a run then puts the values in the placeholders' places among Kysely's
 * parameters and sends the kept SQL through `db.executeQuery`, as Kysely's own
 * `execute` does after compiling (so the log hook, the transaction and the
 * driver see the same CompiledQuery).
 *
 * Relies on Kysely sending each value given to a builder as one parameter,
 * unchanged, whatever the value: the guard test compiles every hot query with
 * real values both ways, on both dialects.
 */
export class PrecompiledQueries implements HotQueries {
  /** One database's, so one dialect's. */
  readonly #compiled = new Map<HotQuery<never, Built>, Precompiled>();

  async rows<V, B extends Built>(db: Db, query: HotQuery<V, B>, values: V): Promise<RowOf<B>[]> {
    return (await db.executeQuery(this.compiled(db, query, values))).rows;
  }

  /** What a run of `query` sends for `values`: the kept SQL, and Kysely's parameters with the values in their places. */
  compiled<V, B extends Built>(db: Db, query: HotQuery<V, B>, values: V): CompiledQuery<RowOf<B>> {
    let compiled = this.#compiled.get(query as HotQuery<never, Built>);
    if (!compiled) {
      compiled = precompile(db, query);
      this.#compiled.set(query as HotQuery<never, Built>, compiled);
    }
    const parameters = compiled.parameters.slice();
    for (let index = 0; index < compiled.places.length; index++) {
      const name = compiled.names[index]!;
      const value = (values as Record<string, unknown>)[name];
      // Kysely leaves an undefined column out of an insert: other SQL than the kept one.
      if (value === undefined) throw new Error(`hot query "${query.name}": ${name} is undefined (pass null)`);
      parameters[compiled.places[index]!] = value;
    }
    return { sql: compiled.sql, query: compiled.node, queryId: createQueryId(), parameters };
  }
}

/** Stands for a value while a hot query is compiled; anything but sending it as it is throws. */
class Placeholder {
  constructor(
    readonly queryName: string,
    readonly name: string,
  ) {}

  [Symbol.toPrimitive](): never {
    throw new Error(`hot query "${this.queryName}": ${this.name} is computed on or written into its SQL; compute it before and pass the result`);
  }
}

function precompile<V, B extends Built>(db: Db, query: HotQuery<V, B>): Precompiled {
  const placeholders = new Map<string, Placeholder>();
  const values = new Proxy(
    {},
    {
      get(_target, name) {
        if (typeof name !== 'string') return undefined;
        let placeholder = placeholders.get(name);
        if (!placeholder) placeholders.set(name, (placeholder = new Placeholder(query.name, name)));
        return placeholder;
      },
    },
  ) as V;
  const compiled = compileOn(db, query.build(db, values));
  const places: number[] = [];
  const names: string[] = [];
  compiled.parameters.forEach((parameter, index) => {
    if (parameter instanceof Placeholder) {
      places.push(index);
      names.push(parameter.name);
    }
  });
  for (const name of placeholders.keys()) {
    if (!names.includes(name)) throw new Error(`hot query "${query.name}": ${name} is not sent as a parameter`);
  }
  return { sql: compiled.sql, node: compiled.query, parameters: compiled.parameters, places, names };
}
