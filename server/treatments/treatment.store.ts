import type { Treatment } from '../../contract/index.js';
import type { Db } from '../db/database.js';
import { ALWAYS_QUERY, type HotReads } from '../db/performance/unchanged-reads.js';
import type { TreatmentRow } from '../db/schema.js';
import { decimalFromCents } from '../money.js';

const toTreatment = (row: TreatmentRow): Treatment => ({
  treatment_id: row.treatment_id,
  treatment_name: row.treatment_name,
  description: row.description,
  base_fee: decimalFromCents(Number(row.base_fee_cents)),
  duration_minutes: row.duration_minutes,
  image_url: row.image_url,
});

/** Spec 2.4: only the clinic's active treatments exist for the API. */
export class TreatmentStore {
  /** `reads`: how its hot reads are made; an app's kept reads (Stores.of), or without them a query each time. */
  constructor(
    private readonly db: Db,
    private readonly reads: HotReads = ALWAYS_QUERY,
  ) {}

  /**
   * Kept while the database is unchanged (see UnchangedReads), as of the look
   * the request's token lookup took in this turn: read-only for the caller.
   */
  listActive(careId: number): Promise<Treatment[]> {
    return this.reads.readAsOfThisTurn(`treatments:${careId}`, () => this.#listActive(careId));
  }

  async #listActive(careId: number): Promise<Treatment[]> {
    const rows = await this.db
      .selectFrom('treatments')
      .selectAll()
      .where('care_id', '=', careId)
      .where('active', '=', 1)
      .orderBy('treatment_id')
      .execute();
    return rows.map(toTreatment);
  }

  async findActive(careId: number, treatmentId: number): Promise<Treatment | undefined> {
    const row = await this.db
      .selectFrom('treatments')
      .selectAll()
      .where('care_id', '=', careId)
      .where('treatment_id', '=', treatmentId)
      .where('active', '=', 1)
      .executeTakeFirst();
    return row && toTreatment(row);
  }
}
