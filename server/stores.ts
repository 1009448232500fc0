import type { Database, Db } from './db/database.js';
import type { Engine } from './db/engine.js';
import { BUILT_EACH_TIME, type HotQueries } from './db/performance/precompiled-queries.js';
import { ALWAYS_QUERY, UnchangedReads, type HotReads } from './db/performance/unchanged-reads.js';
import { KeyStore } from './auth/key.store.js';
import { TokenStore } from './auth/token.store.js';
import { ClinicStore } from './clinics/clinic.store.js';
import { ClinicSnapshots } from './clinics/clinic-snapshot.store.js';
import { OrganizationStore } from './organization/organization.store.js';
import { WebsiteStore } from './website/website.store.js';
import { TreatmentStore } from './treatments/treatment.store.js';
import { DentistStore } from './dentists/dentist.store.js';
import { AppointmentStore } from './appointments/appointment.store.js';
import { IdempotencyStore } from './appointments/idempotency.store.js';

/** What every store of one Stores is bound to. */
interface Binding {
  /** The database's Kysely, or one of its transactions. */
  readonly db: Db;
  readonly engine: Engine;
  /** The app's kept reads; a transaction's stores query every time. */
  readonly hotReads: HotReads;
  /** How the hot path's queries run: compiled once for the database, or built by Kysely each time. */
  readonly hotQueries: HotQueries;
  /** A transaction's shared reads of the clinic (within()). */
  readonly snapshots?: ClinicSnapshots;
}

/**
 * Every store, bound to one connection or transaction. Services receive a
 * Stores and call `within(trx)` for the stores of a transaction they run,
 * instead of building the stores themselves; each store is made on first use.
 */
export class Stores {
  #keys?: KeyStore;
  #tokens?: TokenStore;
  #clinics?: ClinicStore;
  #organizations?: OrganizationStore;
  #websites?: WebsiteStore;
  #treatments?: TreatmentStore;
  #dentists?: DentistStore;
  #appointments?: AppointmentStore;
  #idempotency?: IdempotencyStore;
  /** The stores of each transaction within() was asked for, while that transaction lives. */
  readonly #transactions = new WeakMap<Db, Stores>();

  private constructor(private readonly binding: Binding) {}

  /**
   * The stores of one app on `database`, with the memory it keeps for itself:
   * reads kept while a SQLite file is unchanged (PostgreSQL queries every
   * time). Two apps share none of it, but the database's precompiled queries.
   */
  static of(database: Database): Stores {
    return new Stores({
      db: database.kysely,
      engine: database.engine,
      hotReads: database.changes ? new UnchangedReads(database.changes) : ALWAYS_QUERY,
      hotQueries: database.precompiled ?? BUILT_EACH_TIME,
    });
  }

  /**
   * The same stores, bound to a transaction instead: its reads query, and the
   * clinic is read once for all of them. Asked again for the same transaction
   * (the next booking of a group commit's shared one), it answers the same
   * stores, so the clinic is read once per transaction, not once per booking:
   * on PostgreSQL that is a round trip, the main cost of a booking.
   */
  within(trx: Db): Stores {
    let stores = this.#transactions.get(trx);
    if (!stores) {
      stores = new Stores({ ...this.binding, db: trx, hotReads: ALWAYS_QUERY, snapshots: new ClinicSnapshots(trx, this.binding.hotQueries) });
      this.#transactions.set(trx, stores);
    }
    return stores;
  }

  get keys(): KeyStore {
    return (this.#keys ??= new KeyStore(this.binding.db));
  }

  get tokens(): TokenStore {
    return (this.#tokens ??= new TokenStore(this.binding.db, this.binding.hotReads, this.binding.hotQueries));
  }

  get clinics(): ClinicStore {
    return (this.#clinics ??= new ClinicStore(this.binding.db, this.binding.snapshots));
  }

  get organizations(): OrganizationStore {
    return (this.#organizations ??= new OrganizationStore(this.binding.db));
  }

  get websites(): WebsiteStore {
    const { db, snapshots } = this.binding;
    return (this.#websites ??= new WebsiteStore(db, snapshots));
  }

  get treatments(): TreatmentStore {
    return (this.#treatments ??= new TreatmentStore(this.binding.db, this.binding.hotReads));
  }

  get dentists(): DentistStore {
    return (this.#dentists ??= new DentistStore(this.binding.db, this.binding.hotReads));
  }

  get appointments(): AppointmentStore {
    return (this.#appointments ??= new AppointmentStore(this.binding.db, this.binding.engine, this.binding.hotQueries));
  }

  get idempotency(): IdempotencyStore {
    return (this.#idempotency ??= new IdempotencyStore(this.binding.db, this.binding.engine, this.binding.hotQueries));
  }
}
