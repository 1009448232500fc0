import { z } from 'zod';
import { optionalText } from './appointments.js';
import { ReferenceInput } from './bff.js';
import { PreferredStart } from './bff-change-view.js';
import { CHANGE_MESSAGE_MAX, MAX_PREFERRED_STARTS } from './rules/bff-api.js';

/**
 * POST /api/appointments/change-requests: a patient asks the clinic to cancel
 * a booking, or to move it to one of up to three wished starts, with an
 * optional message sanitised as a booking's note.
 */
export const ChangeRequestBody = z
  .strictObject({
    reference: ReferenceInput,
    kind: z
      .enum(['cancel', 'move'], { error: 'must be "cancel" or "move"' })
      .meta({ description: 'cancel, or move (then preferred_starts is required).' }),
    preferred_starts: z
      .array(PreferredStart)
      .min(1, { message: 'must name at least one start' })
      .max(MAX_PREFERRED_STARTS, { message: `must name at most ${MAX_PREFERRED_STARTS} starts` })
      .optional()
      .meta({ description: `move: one to ${MAX_PREFERRED_STARTS} wished starts, most wished first, each different.` }),
    message: optionalText(CHANGE_MESSAGE_MAX, { multiline: true }).meta({ description: 'An optional message to the clinic.' }),
  })
  .superRefine((body, ctx) => {
    if (body.kind === 'move' && !body.preferred_starts) {
      ctx.addIssue({ code: 'custom', path: ['preferred_starts'], message: 'is required to move a booking' });
    }
    if (body.kind === 'cancel' && body.preferred_starts) {
      ctx.addIssue({ code: 'custom', path: ['preferred_starts'], message: 'is only for a move' });
    }
    const starts = (body.preferred_starts ?? []).map((start) => `${start.date}T${start.time}`);
    if (new Set(starts).size !== starts.length) {
      ctx.addIssue({ code: 'custom', path: ['preferred_starts'], message: 'must name each start once' });
    }
  })
  .meta({ id: 'ChangeRequestBody' });
export type ChangeRequestBody = z.input<typeof ChangeRequestBody>;

export const ChangeRequestResult = z
  .object({
    kind: z.enum(['cancel', 'move']),
    requested_at: z.string().meta({ description: 'When the request was taken (ISO 8601): the first one, when already_requested.' }),
    already_requested: z
      .boolean()
      .meta({ description: 'true: the same kind of request was taken before; nothing new was sent to the clinic.' }),
  })
  .strict()
  .meta({ id: 'ChangeRequestResult' });
export type ChangeRequestResult = z.infer<typeof ChangeRequestResult>;

export const ChangeRequestResponse = z
  .object({ success: z.literal(true), message: z.string(), data: ChangeRequestResult })
  .strict()
  .meta({ id: 'ChangeRequestResponse' });
export type ChangeRequestResponse = z.infer<typeof ChangeRequestResponse>;
