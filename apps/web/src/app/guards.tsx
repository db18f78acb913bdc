import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useAuth, useSessionUser } from './auth';
import { PageLoader } from './components/PageLoader';
import { type AccessRule, accessDenial } from './layout/menu';
import { toast } from './toast';

/** Private routes: a signed-out visitor goes to /login, and comes back after signing in. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <PageLoader fullScreen />;
  if (status === 'out') return <Navigate to="/login" replace state={{ from: location }} />;
  return children;
}

/**
 * Public routes (login, sign-up): a user who comes signed in goes home (/), as the spec says; one
 * who signs in here goes on to the tickets, as the spec says of the login.
 */
export function PublicOnly() {
  const { status } = useAuth();
  const signedOutHere = useRef(false);
  if (status === 'out') signedOutHere.current = true;
  if (status === 'loading') return <PageLoader fullScreen />;
  if (status === 'in') return <Navigate to={signedOutHere.current ? '/tickets' : '/'} replace />;
  return <Outlet />;
}

const DENIED_REDIRECT_MS = 1_000;

interface RequireAccessProps extends AccessRule {
  children: ReactNode;
  /** The spec's company toast whatever is missing (the announcements page says it to non-super users). */
  deniedAs?: 'company';
}

/**
 * A page the user's profile or plan does not allow: a toast, then / after 1 s. The spec's toast
 * ('Esta empresa não possui permissão...') speaks of the company, so it is for what the plan
 * leaves out; a profile short of the page's role is told it lacks the permission. Menu and route
 * use the same check, so a hidden item is also a closed page.
 */
export function RequireAccess({
  permission,
  minRole,
  needsCampaigns,
  children,
  deniedAs,
}: RequireAccessProps) {
  const user = useSessionUser();
  const { t } = useTranslation('layout');
  const navigate = useNavigate();
  const denial = accessDenial(user, { permission, minRole, needsCampaigns });
  useEffect(() => {
    if (!denial) return;
    toast.error(t(denial === 'role' && deniedAs !== 'company' ? 'noPermission' : 'accessDenied'));
    const timer = setTimeout(() => navigate('/', { replace: true }), DENIED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [denial, deniedAs, navigate, t]);
  return denial ? null : children;
}
