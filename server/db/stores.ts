import { engineOf, type Db } from './connection.js';
import type { Engine } from './engine.js';
import { KeyStore } from '../auth/key.store.js';
import { TokenStore } from '../auth/token.store.js';
import { ClinicStore } from '../clinics/clinic.store.js';
import { OrganizationStore } from '../organization/organization.store.js';
import { WebsiteStore } from '../website/website.store.js';
import { TreatmentStore } from '../treatments/treatment.store.js';
import { DentistStore } from '../dentists/dentist.store.js';
import { AppointmentStore } from '../appointments/appointment.store.js';
import { IdempotencyStore } from '../appointments/idempotency.store.js';
import { ClinicSnapshots } from '../clinics/clinic-snapshot.store.js';

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

  /**
   * `engine` defaults to the engine `db` was opened with (a transaction's must
   * be given); `snapshots`, only for a transaction's stores, lets the clinic
   * and website stores share one read of the clinic.
   */
  constructor(
    readonly db: Db,
    readonly engine: Engine = engineOf(db),
    private readonly snapshots?: ClinicSnapshots,
  ) {}

  /** The same stores, bound to a transaction instead. */
  within(trx: Db): Stores {
    return new Stores(trx, this.engine, new ClinicSnapshots(trx));
  }

  get keys(): KeyStore {
    return (this.#keys ??= new KeyStore(this.db));
  }

  get tokens(): TokenStore {
    return (this.#tokens ??= new TokenStore(this.db));
  }

  get clinics(): ClinicStore {
    return (this.#clinics ??= new ClinicStore(this.db, this.snapshots));
  }

  get organizations(): OrganizationStore {
    return (this.#organizations ??= new OrganizationStore(this.db));
  }

  get websites(): WebsiteStore {
    return (this.#websites ??= new WebsiteStore(this.db, this.snapshots));
  }

  get treatments(): TreatmentStore {
    return (this.#treatments ??= new TreatmentStore(this.db));
  }

  get dentists(): DentistStore {
    return (this.#dentists ??= new DentistStore(this.db));
  }

  get appointments(): AppointmentStore {
    return (this.#appointments ??= new AppointmentStore(this.db, this.engine));
  }

  get idempotency(): IdempotencyStore {
    return (this.#idempotency ??= new IdempotencyStore(this.db, this.engine));
  }
}
