// Sign-in (`POST /users/auth`): email and password in, a token out.
import { z } from 'zod';

/** Body of `POST /users/auth`; email validity is the service's check (EMAIL_REQUIRED_NOT_VALID). */
export const SignInBody = z.object({ email: z.string(), password: z.string() });
export type SignInBody = z.infer<typeof SignInBody>;
export const SignInResponse = z.looseObject({ token: z.string() });
export type SignInResponse = z.infer<typeof SignInResponse>;
