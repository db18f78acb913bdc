import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useAuth, useSessionUser } from './auth';
import { PageLoader } from './components/PageLoader';
import { type AccessRule, canAccess } from './layout/menu';
import { toast } from './toast';

/** Private routes: a signed-out visitor goes to /login, and comes back after signing in. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <PageLoader fullScreen />;
  if (status === 'out') return <Navigate to="/login" replace state={{ from: location }} />;
  return children;
}

/** Public routes (login, sign-up): a signed-in user goes to the tickets. */
export function PublicOnly() {
  const { status } = useAuth();
  if (status === 'loading') return <PageLoader fullScreen />;
  if (status === 'in') return <Navigate to="/tickets" replace />;
  return <Outlet />;
}

const DENIED_REDIRECT_MS = 1_000;

interface RequireAccessProps extends AccessRule {
  children: ReactNode;
}

/**
 * A page the user's profile or plan does not allow: the spec's toast, then / after 1 s. Menu and
 * route use the same check, so a hidden item is also a closed page.
 */
export function RequireAccess({
  permission,
  minRole,
  needsCampaigns,
  children,
}: RequireAccessProps) {
  const user = useSessionUser();
  const { t } = useTranslation('layout');
  const navigate = useNavigate();
  const allowed = canAccess(user, { permission, minRole, needsCampaigns });
  useEffect(() => {
    if (allowed) return;
    toast.error(t('accessDenied'));
    const timer = setTimeout(() => navigate('/', { replace: true }), DENIED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [allowed, navigate, t]);
  return allowed ? children : null;
}
