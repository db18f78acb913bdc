import { defineContract } from '../contract';
import {
  forgotPasswordSchema,
  passwordResetAnswerSchema,
  resetPasswordSchema,
} from './password-reset.schemas';

const answer = { 200: passwordResetAnswerSchema };

/**
 * Password reset. The spec's paths carry the e-mail, code and new password in the URL (kept for
 * old clients); the body variants keep them out of URLs that proxies log, and the web uses them.
 */
export const passwordResetContract = defineContract('passwordReset', {
  requestByPath: {
    method: 'POST',
    path: '/forgetpassword/:email',
    access: 'public',
    params: forgotPasswordSchema,
    responses: answer,
  },
  request: {
    method: 'POST',
    path: '/forgetpassword',
    access: 'public',
    body: forgotPasswordSchema,
    responses: answer,
  },
  resetByPath: {
    method: 'POST',
    path: '/resetpasswords/:email/:token/:newPassword',
    access: 'public',
    params: resetPasswordSchema,
    responses: answer,
  },
  reset: {
    method: 'POST',
    path: '/resetpasswords',
    access: 'public',
    body: resetPasswordSchema,
    responses: answer,
  },
});
