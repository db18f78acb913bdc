import { defineContract } from '../contract';
import { loginSchema, sessionSchema, sessionUserSchema } from './auth.schemas';

export const authContract = defineContract('auth', {
  login: {
    method: 'POST',
    path: '/auth/login',
    access: 'public',
    body: loginSchema,
    responses: { 200: sessionSchema },
  },
  /** Trades the refresh cookie for a new access token. */
  refresh: {
    method: 'POST',
    path: '/auth/refresh_token',
    access: 'public',
    responses: { 200: sessionSchema },
  },
  /** Public on purpose: signing out must work with an expired access token too. */
  logout: {
    method: 'DELETE',
    path: '/auth/logout',
    access: 'public',
    responses: { 204: null },
  },
  me: {
    method: 'GET',
    path: '/auth/me',
    access: 'session:use',
    responses: { 200: sessionUserSchema },
  },
});
