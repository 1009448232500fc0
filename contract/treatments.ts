import { z } from 'zod';
import { Decimal, IdParam, LongText, ShortText, Url } from './common.js';

/** The treatment fields a clinic provides (spec 2.4 without treatment_id). */
export const TreatmentInput = z
  .object({
    treatment_name: ShortText.min(1),
    description: LongText,
    base_fee: Decimal,
    duration_minutes: z.number().int().min(5).max(600),
    image_url: Url,
  })
  .strict();

/** Spec 2.4. */
export const Treatment = z
  .object({ treatment_id: z.number().int().min(1), ...TreatmentInput.shape })
  .strict()
  .meta({ id: 'Treatment' });
export type Treatment = z.infer<typeof Treatment>;

export const TreatmentListResponse = z
  .object({ success: z.literal(true), data: z.array(Treatment) })
  .strict()
  .meta({ id: 'TreatmentListResponse' });
export type TreatmentListResponse = z.infer<typeof TreatmentListResponse>;

export const TreatmentResponse = z
  .object({ success: z.literal(true), data: Treatment })
  .strict()
  .meta({ id: 'TreatmentResponse' });
export type TreatmentResponse = z.infer<typeof TreatmentResponse>;

export const TreatmentPathParams = z.object({ id: IdParam.meta({ description: 'treatment_id' }) });
