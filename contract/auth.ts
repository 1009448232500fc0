import { z } from 'zod';

/** Spec 2.1: the answer of POST /granttoken, without success/message wrapper. */
export const AccessTokenResponse = z
  .object({
    access_token: z.string().meta({ description: 'Bearer token for every other request.' }),
    expires_in: z.number().int().min(1).meta({ description: 'Lifetime in seconds (3600).', example: 3600 }),
  })
  .strict()
  .meta({ id: 'AccessTokenResponse' });
export type AccessTokenResponse = z.infer<typeof AccessTokenResponse>;

/** Spec 5: the token lives one hour. */
export const TOKEN_LIFETIME_SECONDS = 3600;

export const GrantTokenHeaders = z.object({
  'x-app-key': z.string().meta({ description: 'Application key from the clinic settings area.' }),
  'x-app-secret-key': z.string().meta({ description: 'Secret key shown once when the key was created.' }),
});
