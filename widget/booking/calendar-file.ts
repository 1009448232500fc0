import type { WebsiteSite } from '../../contract/index.js';
import { icsFile, icsTitle } from '../../contract/rules/appointment-ics.js';
import { SLOT_STEP_MINUTES } from '../../contract/rules/slots.js';
import { manageLink } from '../manage/manage-link.js';
import type { Booked } from './booking-flow.js';

/*
 * The calendar file (.ics) of a booking made, as a part fetched on demand (vite.config.ts, ownModule):
 * only a booking that succeeds needs it, so no first render loads its builder. It is the builder the
 * BFF's confirmation e-mail attaches, so the file downloaded and the one mailed are one calendar entry.
 */

/**
 * The booking's calendar file as a blob: URL, for the confirmation's download link (the form revokes
 * it): the clinic's name and address, the treatment and its length, the start in the clinic's zone
 * when known, and the manage link (`manage` is its label) in its description. No patient data.
 */
export const calendarFileUrl = (booked: Omit<Booked, 'ics'>, site: WebsiteSite | undefined, zone: string | undefined, manage: string): string =>
  URL.createObjectURL(
    new Blob(
      [
        icsFile({
          title: icsTitle(booked.treatment?.treatment_name, site?.clinic_name),
          address: site?.contact_address ?? '',
          date: booked.date,
          time: booked.time,
          minutes: booked.treatment?.duration_minutes ?? SLOT_STEP_MINUTES,
          zone,
          reference: booked.reference,
          description: `${manage}: ${manageLink(booked.reference, booked.booking_page_url)}`,
        }),
      ],
      { type: 'text/calendar' },
    ),
  );
