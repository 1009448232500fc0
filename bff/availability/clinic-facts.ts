import type { OpeningHours } from '../../contract/rules/opening-hours.js';
import type { ContentCache } from '../content/content-cache.js';
import { DENTISTS, TREATMENTS, WEBSITE } from '../content/resources.js';

/**
 * The few facts availability needs, from the content cache (already checked
 * against the contract and sanitised, and kept parsed), like any other
 * anonymous read, under the read budget. A booking reads its own
 * (BookingFacts), outside that budget.
 */
export class ClinicFacts {
  constructor(private readonly cache: ContentCache) {}

  async openingHours(): Promise<OpeningHours> {
    return (await this.cache.get(WEBSITE)).value?.site.opening_hours ?? {};
  }

  /** The length of an active treatment, in minutes; undefined when there is no such treatment. */
  async treatmentDuration(treatmentId: number): Promise<number | undefined> {
    return (await this.cache.get(TREATMENTS)).value?.data.find((t) => t.treatment_id === treatmentId)?.duration_minutes;
  }

  /** The clinic's dentists' ids, in the order GET /dentists lists them. */
  async dentistIds(): Promise<number[]> {
    return (await this.cache.get(DENTISTS)).value?.data.map((d) => d.doctor_id) ?? [];
  }
}
