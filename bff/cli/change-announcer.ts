import { pino } from 'pino';
import { RedisLink } from '../../platform/redis-link.js';
import { announceSiteChange } from '../sites/site-changes.js';

/**
 * REDIS_URL set: announces each change to the running BFFs, connecting on the
 * first. A failure is one warning line (JSON) on `stderr`, never a failed
 * command: the change is in the database, and the BFFs' polling sees it
 * within seconds.
 */
export function changeAnnouncer(url: string, keyPrefix: string, stderr: (text: string) => void) {
  let link: Promise<RedisLink> | undefined;
  return {
    announce: async (siteId: string) => {
      try {
        // The link's own lines (connected, unavailable) are not the CLI's to print: the warning below says what matters.
        link ??= RedisLink.open(url, { logger: pino({ level: 'silent' }), keyPrefix });
        await announceSiteChange(await link, siteId);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        stderr(
          `${JSON.stringify({ warning: 'the change was not announced on Redis; running BFFs see it at their next look at the sites table', site_id: siteId, reason })}\n`,
        );
      }
    },
    close: async () => (link ? (await link).close() : undefined),
  };
}
