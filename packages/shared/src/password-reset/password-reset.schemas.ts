import { z } from 'zod';
import { emailField, MSG } from '../validation';

/** The spec's rule for a new password, and its message. */
export const STRONG_PASSWORD_MESSAGE =
  'Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.';
export const strongPasswordField = z
  .string({ error: MSG.required })
  .max(100, MSG.tooLong)
  .regex(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d).{8,}$/, STRONG_PASSWORD_MESSAGE);

/** How long a reset code lives, and how many tries it takes before it is spent. */
export const RESET_CODE_TTL_MINUTES = 15;
export const RESET_CODE_MAX_ATTEMPTS = 5;

/** The one-time code mailed to the user: six digits. */
export const resetCodeField = z
  .string({ error: MSG.required })
  .trim()
  .regex(/^\d{6}$/, 'Invalid code');

export const forgotPasswordSchema = z.object({ email: emailField });
export type ForgotPassword = z.infer<typeof forgotPasswordSchema>;

export const resetPasswordSchema = z.object({
  email: emailField,
  token: resetCodeField,
  newPassword: strongPasswordField,
});
export type ResetPassword = z.infer<typeof resetPasswordSchema>;

export const passwordResetAnswerSchema = z.object({ message: z.string() });
