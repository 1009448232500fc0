import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The sites (docs/sites.md). Written with Kysely's schema builder so both engines
 * run the same migration. The app secret is stored only sealed; origins and
 * limits as JSON text, read and written whole.
 */
export const sitesTable: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('sites')
      .addColumn('site_id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('upstream_url', 'text', (c) => c.notNull())
      .addColumn('app_key', 'text', (c) => c.notNull())
      .addColumn('app_secret_sealed', 'text', (c) => c.notNull())
      .addColumn('allowed_origins', 'text', (c) => c.notNull())
      .addColumn('time_zone', 'text', (c) => c.notNull())
      .addColumn('min_notice_minutes', 'integer', (c) => c.notNull())
      .addColumn('horizon_days', 'integer', (c) => c.notNull())
      .addColumn('default_duration_minutes', 'integer', (c) => c.notNull())
      .addColumn('limits', 'text')
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'suspended')`))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
};
