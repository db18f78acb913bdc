import {
  authContract,
  type Login,
  type Session,
  type SessionUser,
  sessionUserSchema,
} from '@atendi/shared';
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { ApiError, api, onLoggedOut } from './api';
import { clearSession, readToken, storeCampaignFlag, storeSessionIds, storeToken } from './session';

export type AuthStatus = 'loading' | 'in' | 'out';

interface AuthValue {
  status: AuthStatus;
  user: SessionUser | null;
  login: (credentials: Login) => Promise<Session>;
  logout: () => Promise<void>;
  /** Patches the signed-in user after a profile edit. */
  updateUser: (patch: Partial<SessionUser>) => void;
}

const AuthContext = createContext<AuthValue | null>(null);

export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth needs <AuthProvider>');
  return value;
}

/** The signed-in user; only for components under the private routes. */
export function useSessionUser(): SessionUser {
  const { user } = useAuth();
  if (!user) throw new Error('useSessionUser needs a signed-in user');
  return user;
}

function toSessionUser(data: unknown): SessionUser {
  const parsed = sessionUserSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  // a server one field ahead of this client should not lock everybody out
  console.warn('Unexpected session user shape', parsed.error.issues);
  return data as SessionUser;
}

/** The company's campaignsEnabled setting (on unless switched off) is the 'cshow' flag's source. */
function rememberCampaignFlag(user: SessionUser): void {
  const setting = user.company?.settings?.find((item) => item.key === 'campaignsEnabled');
  storeCampaignFlag(!setting || setting.value === 'true');
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<AuthStatus>(() => (readToken() ? 'loading' : 'out'));
  const [user, setUser] = useState<SessionUser | null>(null);

  const signOutLocally = useCallback(() => {
    clearSession();
    setUser(null);
    setStatus('out');
    queryClient.clear();
  }, [queryClient]);

  // restore the session of a reload; the API client refreshes the token on a 403
  useEffect(() => {
    if (!readToken()) return;
    let cancelled = false;
    api
      .call(authContract.me)
      .then((data) => {
        if (cancelled) return;
        const me = toSessionUser(data);
        storeSessionIds(me.companyId, me.id);
        rememberCampaignFlag(me);
        setUser(me);
        setStatus('in');
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        if (error instanceof ApiError) {
          signOutLocally();
        } else {
          // server unreachable: keep the token so a later reload can restore the session
          setStatus('out');
        }
      });
    return () => {
      cancelled = true;
    };
  }, [signOutLocally]);

  useEffect(() => onLoggedOut(signOutLocally), [signOutLocally]);

  // signing out in another tab signs this one out too
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === 'token' && !event.newValue) signOutLocally();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [signOutLocally]);

  const login = useCallback(
    async (credentials: Login) => {
      const session = await api.call(authContract.login, { body: credentials, anonymous: true });
      const me = toSessionUser(session.user);
      storeToken(session.token);
      storeSessionIds(me.companyId, me.id);
      rememberCampaignFlag(me);
      queryClient.clear();
      setUser(me);
      setStatus('in');
      return { ...session, user: me };
    },
    [queryClient],
  );

  const logout = useCallback(async () => {
    try {
      await api.call(authContract.logout);
    } catch {
      // the local session ends whatever the server says
    }
    signOutLocally();
  }, [signOutLocally]);

  const updateUser = useCallback((patch: Partial<SessionUser>) => {
    setUser((current) => (current ? { ...current, ...patch } : current));
  }, []);

  const value = useMemo(
    () => ({ status, user, login, logout, updateUser }),
    [status, user, login, logout, updateUser],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
