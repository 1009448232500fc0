import type { WebsiteSettings, WebsiteSite } from '../../contract/index.js';
import type { Db } from '../db/database.js';
import type { ClinicSnapshots } from '../clinics/clinic-snapshot.store.js';

/** Spec 2.3: the website settings, stored as one validated JSON document per clinic. */
export class WebsiteStore {
  /** `snapshots`: a transaction's shared reads of the clinic (Stores.within). */
  constructor(
    private readonly db: Db,
    private readonly snapshots?: ClinicSnapshots,
  ) {}

  async settings(careId: number): Promise<Readonly<WebsiteSettings> | undefined> {
    const json = this.snapshots
      ? (await this.snapshots.of(careId))?.settings_json
      : (await this.db.selectFrom('websites').select('settings_json').where('care_id', '=', careId).executeTakeFirst())?.settings_json;
    return json ? (JSON.parse(json) as WebsiteSettings) : undefined;
  }

  async site(careId: number): Promise<WebsiteSite | undefined> {
    const settings = await this.settings(careId);
    return settings && { care_id: careId, ...settings };
  }
}
