import { loginSchema, sessionSchema, sessionUserSchema } from '@atendi/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken } from '../../platform/auth/tokens';
import { routes } from '../../platform/routes';
import type { Services } from '../services';
import type { SignedIn } from './auth.service';

/** The refresh token's cookie; its name is the one the spec's clients already carry. */
export const REFRESH_COOKIE = 'jrt';

export const authRoutes = ({ auth }: Services) =>
  routes(async (app) => {
    const production = app.platform.config.NODE_ENV === 'production';
    const ttlSeconds = app.platform.config.REFRESH_TOKEN_TTL_DAYS * 86_400;

    const answer = (reply: FastifyReply, { session, refreshToken }: SignedIn) => {
      reply.setCookie(REFRESH_COOKIE, refreshToken, {
        httpOnly: true,
        secure: production,
        sameSite: 'lax',
        path: '/auth',
        maxAge: ttlSeconds,
      });
      return session;
    };

    app.post(
      '/auth/login',
      {
        config: { access: 'public' },
        schema: { tags: ['auth'], body: loginSchema, response: { 200: sessionSchema } },
      },
      async (req, reply) => answer(reply, await auth.login(req.body)),
    );

    app.post(
      '/auth/refresh_token',
      {
        config: { access: 'public' },
        schema: { tags: ['auth'], response: { 200: sessionSchema } },
      },
      async (req, reply) => {
        try {
          return answer(reply, await auth.refresh(req.cookies[REFRESH_COOKIE]));
        } catch (error) {
          reply.clearCookie(REFRESH_COOKIE, { path: '/auth' });
          throw error;
        }
      },
    );

    // Public on purpose: signing out must work with an expired access token too.
    app.delete(
      '/auth/logout',
      { config: { access: 'public' }, schema: { tags: ['auth'] } },
      async (req: FastifyRequest, reply) => {
        const token = bearerToken(req.headers.authorization);
        const verified = token ? await app.platform.tokens.verify(token) : undefined;
        await auth.logout(verified?.ok ? verified.claims.sid : undefined);
        const refresh = req.cookies[REFRESH_COOKIE];
        if (refresh) await auth.logoutByRefresh(refresh);
        reply.clearCookie(REFRESH_COOKIE, { path: '/auth' });
        return reply.status(204).send();
      },
    );

    app.get(
      '/auth/me',
      {
        config: { access: 'session:use' },
        schema: { tags: ['auth'], response: { 200: sessionUserSchema } },
      },
      (req) => auth.me(req.ctx),
    );
  });
