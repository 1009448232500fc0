import type { Kysely, Migration } from 'kysely';

/**
 * A counter on each site that every change moves by one (site.store.ts). A
 * BFF tells a site it holds from the site in the table by it: `updated_at`
 * alone may not move (two changes within one millisecond, a clock set back),
 * and a change it did not see moving would leave a stale site served.
 */
export const siteVersion: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('sites')
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
  },
};
