import { z } from 'zod';
import { CalendarDate, TimeOfDay } from './common.js';
import { REFUSAL_REASONS } from './rules/bff-api.js';

/** One wished start of a move request, in the clinic's time zone. */
export const PreferredStart = z
  .strictObject({
    date: CalendarDate.meta({ description: 'YYYY-MM-DD, in the clinic\'s time zone.', example: '2026-12-03' }),
    time: TimeOfDay.meta({ description: 'HH:MM, on the 15-minute grid.', example: '09:30' }),
  })
  .meta({ id: 'PreferredStart' });
export type PreferredStart = z.infer<typeof PreferredStart>;

/**
 * What a patient may still ask of a booking, beside its status view: the
 * requests already made and the clinic's change rules. The actions are open
 * only while the booking is Scheduled and its start further ahead than the
 * clinic's change window; `closed_reason` says why they are not.
 */
export const ChangeView = z
  .object({
    cancel_requested_at: z.string().nullable().meta({ description: 'When a cancellation was asked for (ISO 8601), or null.' }),
    move_requested_at: z.string().nullable().meta({ description: 'When another time was asked for (ISO 8601), or null.' }),
    move_preferred_starts: z.array(PreferredStart).meta({ description: 'The times asked for, in the patient\'s order; empty without a move request.' }),
    can_request_cancel: z.boolean().meta({ description: 'A cancellation request would be taken now.' }),
    can_request_move: z.boolean().meta({ description: 'A move request would be taken now.' }),
    closed_reason: z
      .enum(REFUSAL_REASONS)
      .nullable()
      .meta({
        description:
          'Why neither request is taken: inside_change_window, in_past, already_cancelled or appointment_completed; ' +
          'null while they are (move_not_offered shows as can_request_move false).',
      }),
    min_notice_hours: z.number().int().min(0).meta({ description: 'How many hours before the start requests are still taken online.' }),
    move_offered: z.boolean().meta({ description: 'Whether the clinic takes move requests online at all.' }),
    text: z.string().nullable().meta({ description: "The clinic's own words beside the actions (plain text), or null." }),
    booking_page_url: z.string().nullable().meta({ description: 'The page manage links open; null: the page the patient booked on.' }),
  })
  .strict()
  .meta({ id: 'ChangeView' });
export type ChangeView = z.infer<typeof ChangeView>;
