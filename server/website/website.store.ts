import type { WebsiteSettings, WebsiteSite } from '../../contract/index.js';
import type { Db } from '../db/connection.js';

/** Spec 2.3: the website settings, stored as one validated JSON document per clinic. */
export class WebsiteStore {
  constructor(private readonly db: Db) {}

  async settings(careId: number): Promise<WebsiteSettings | undefined> {
    const row = await this.db
      .selectFrom('websites')
      .select('settings_json')
      .where('care_id', '=', careId)
      .executeTakeFirst();
    return row && (JSON.parse(row.settings_json) as WebsiteSettings);
  }

  async site(careId: number): Promise<WebsiteSite | undefined> {
    const settings = await this.settings(careId);
    return settings && { care_id: careId, ...settings };
  }
}
