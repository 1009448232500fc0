import { z } from 'zod';
import { Decimal, ShortText, Url } from './common.js';

/** The dentist fields a clinic provides (spec 2.5 without doctor_id). */
export const DentistInput = z
  .object({
    doctor_name: ShortText.min(1),
    specialization: ShortText,
    qualification: ShortText,
    experience_years: z.number().int().min(0).max(80),
    consultation_fee: Decimal,
    signature_image_url: Url,
  })
  .strict();

/** Spec 2.5. */
export const Dentist = z
  .object({ doctor_id: z.number().int().min(1), ...DentistInput.shape })
  .strict()
  .meta({ id: 'Dentist' });
export type Dentist = z.infer<typeof Dentist>;

export const DentistListResponse = z
  .object({ success: z.literal(true), data: z.array(Dentist) })
  .strict()
  .meta({ id: 'DentistListResponse' });
export type DentistListResponse = z.infer<typeof DentistListResponse>;
