import { authContract as auth } from '@atendi/shared';
import type { FastifyReply } from 'fastify';
import { bearerToken } from '../../platform/auth/tokens';
import { contractRoutes } from '../../platform/routes';
import type { Services } from '../services';
import type { SignedIn } from './auth.service';

/** The refresh token's cookie; its name is the one the spec's clients already carry. */
export const REFRESH_COOKIE = 'jrt';

export const authRoutes = ({ auth: service }: Services) =>
  contractRoutes((serve, app) => {
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

    serve(auth.login, async (req, reply) => answer(reply, await service.login(req.body)));

    serve(auth.refresh, async (req, reply) => {
      try {
        return answer(reply, await service.refresh(req.cookies[REFRESH_COOKIE]));
      } catch (error) {
        reply.clearCookie(REFRESH_COOKIE, { path: '/auth' });
        throw error;
      }
    });

    serve(auth.logout, async (req, reply) => {
      const token = bearerToken(req.headers.authorization);
      const verified = token ? await app.platform.tokens.verify(token) : undefined;
      await service.logout(verified?.ok ? verified.claims.sid : undefined);
      const refresh = req.cookies[REFRESH_COOKIE];
      if (refresh) await service.logoutByRefresh(refresh);
      reply.clearCookie(REFRESH_COOKIE, { path: '/auth' });
    });

    serve(auth.me, (req) => service.me(req.ctx));
  });
