import type { DentistListResponse, TreatmentListResponse, WebsiteResponse } from '../../contract/index.js';
import type { OpeningHours } from '../../contract/rules/opening-hours.js';
import type { ContentCache } from '../content/content-cache.js';
import { DENTISTS, TREATMENTS, WEBSITE } from '../content/resources.js';

/**
 * The few facts availability and "any dentist" need, read from the content
 * cache (already checked against the contract and sanitised), so they cost no
 * upstream call of their own beyond the cache's.
 */
export class ClinicFacts {
  constructor(private readonly cache: ContentCache) {}

  async openingHours(): Promise<OpeningHours> {
    const answer = await this.cache.get('/website', WEBSITE);
    return answer.status === 200 ? (JSON.parse(answer.body.toString()) as WebsiteResponse).site.opening_hours : {};
  }

  /** The length of an active treatment, in minutes; undefined when there is no such treatment. */
  async treatmentDuration(treatmentId: number): Promise<number | undefined> {
    const answer = await this.cache.get('/treatments', TREATMENTS);
    if (answer.status !== 200) return undefined;
    return (JSON.parse(answer.body.toString()) as TreatmentListResponse).data.find((t) => t.treatment_id === treatmentId)?.duration_minutes;
  }

  /** The clinic's dentists' ids, in the order GET /dentists lists them. */
  async dentistIds(): Promise<number[]> {
    const answer = await this.cache.get('/dentists', DENTISTS);
    return answer.status === 200 ? (JSON.parse(answer.body.toString()) as DentistListResponse).data.map((d) => d.doctor_id) : [];
  }
}
