import type { SessionUser, Setting } from '@atendi/shared';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useSessionUser } from '../../../app/auth';
import { PageHeader } from '../../../app/components/PageHeader';
import { PageLoader } from '../../../app/components/PageLoader';
import { CompaniesTab } from '../../companies/components/CompaniesTab';
import { HelpsTab } from '../../helps/components/HelpsTab';
import { PlansTab } from '../../plans/components/PlansTab';
import { settingValue, useCompany, useSettings } from '../api';
import { CompanyHoursForm } from '../components/CompanyHoursForm';
import { PaymentSettings } from '../components/PaymentSettings';
import { SettingsOptions } from '../components/SettingsOptions';
import { useSettingsRealtime } from '../realtime';

interface TabContext {
  user: SessionUser;
  settings: readonly Setting[];
}

interface SettingsTab {
  /** The `tab` query parameter that opens it (the menu links /settings?tab=companies...). */
  value: string;
  shown: (context: TabContext) => boolean;
  panel: (context: TabContext) => ReactNode;
}

/** The page's tabs in order; the super user's tabs open the options for anybody else. */
const TABS: readonly SettingsTab[] = [
  {
    value: 'options',
    shown: () => true,
    panel: ({ settings, user }) => (
      <>
        <SettingsOptions settings={settings} />
        {/* The payment provider's key is the platform's: only the super user sees and sets it. */}
        {user.super && <PaymentSettings hint={settingValue(settings, 'asaas')} />}
      </>
    ),
  },
  {
    value: 'schedules',
    shown: ({ settings }) => settingValue(settings, 'scheduleType') === 'company',
    panel: ({ user }) => <CompanyHours companyId={user.companyId} />,
  },
  { value: 'companies', shown: ({ user }) => user.super, panel: () => <CompaniesTab /> },
  { value: 'plans', shown: ({ user }) => user.super, panel: () => <PlansTab /> },
  { value: 'helps', shown: ({ user }) => user.super, panel: () => <HelpsTab /> },
];

function CompanyHours({ companyId }: { companyId: number }) {
  const company = useCompany(companyId);
  if (!company.data) return <PageLoader />;
  return <CompanyHoursForm companyId={companyId} schedules={company.data.schedules} />;
}

export function SettingsPage() {
  const { t } = useTranslation('settings');
  const user = useSessionUser();
  useSettingsRealtime();
  const settings = useSettings();
  const [params, setParams] = useSearchParams();

  const context: TabContext | null = settings.data ? { user, settings: settings.data } : null;
  const tabs = context ? TABS.filter((tab) => tab.shown(context)) : [];
  const current = tabs.find((tab) => tab.value === params.get('tab')) ?? tabs[0];

  return (
    <>
      <PageHeader title={t('title')} />
      <Paper variant="outlined">
        {settings.isError ? (
          <Typography color="error" sx={{ p: 3 }}>
            {t('common:errors.listFailed')}
          </Typography>
        ) : !context || !current ? (
          <PageLoader />
        ) : (
          <>
            <Tabs
              value={current.value}
              onChange={(_event, value: string) => setParams({ tab: value })}
              aria-label={t('tabs.label')}
              variant="scrollable"
              allowScrollButtonsMobile
              sx={{ borderBottom: 1, borderColor: 'divider', px: { xs: 0, sm: 1 } }}
            >
              {tabs.map((tab) => (
                <Tab
                  key={tab.value}
                  value={tab.value}
                  label={t(`tabs.${tab.value}`)}
                  id={`settings-tab-${tab.value}`}
                  aria-controls={`settings-panel-${tab.value}`}
                />
              ))}
            </Tabs>
            <Box
              role="tabpanel"
              id={`settings-panel-${current.value}`}
              aria-labelledby={`settings-tab-${current.value}`}
              sx={{ p: { xs: 2, sm: 3 } }}
            >
              {/* A tab's own words load on its first visit: its panel waits with a loader, so the
                  tab is selected at once and the previous tab's panel does not stay in its place. */}
              <Suspense key={current.value} fallback={<PageLoader />}>
                {current.panel(context)}
              </Suspense>
            </Box>
          </>
        )}
      </Paper>
    </>
  );
}
