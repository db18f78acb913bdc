import type { CampaignDetail } from '@atendi/shared';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import {
  CartesianGrid,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useClock } from '../../../app/clock';
import { PageHeader } from '../../../app/components/PageHeader';
import { PageLoader } from '../../../app/components/PageLoader';
import { useCampaign } from '../api';
import { campaignsKeys } from '../campaigns.cache';
import { useCampaignsRealtime } from '../realtime';

/** Delivered of valid contacts, as a percentage (0 without recipients). */
export const progressOf = (report: CampaignDetail['report']) =>
  report.validContacts > 0 ? Math.min(100, (report.delivered / report.validContacts) * 100) : 0;

/** Live updates arrive per send; the report asks again at most this often. */
const REFRESH_MS = 1_000;
/** A finished campaign's report is asked once more this long after (spec administration 4). */
const FINISHED_RELOAD_MS = 5_000;

function StatCard({ title, value }: { title: string; value: string | number }) {
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="body2" color="text.secondary">
          {title}
        </Typography>
        <Typography variant="h5" component="p">
          {value}
        </Typography>
      </CardContent>
    </Card>
  );
}

/** /campaign/{id}/report: status, progress, the cards and the sends over time, kept live. */
export function CampaignReportPage() {
  const { t } = useTranslation('campaigns');
  const clock = useClock();
  const { palette } = useTheme();
  const id = Number(useParams().campaignId);
  const campaign = useCampaign(id);
  const queryClient = useQueryClient();
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);

  useCampaignsRealtime((record) => {
    if (record.id !== id || pending.current) return;
    const finished = record.status === 'FINALIZADA';
    pending.current = setTimeout(
      () => {
        pending.current = null;
        void queryClient.invalidateQueries({ queryKey: campaignsKeys.one(id) });
      },
      finished ? FINISHED_RELOAD_MS : REFRESH_MS,
    );
  });
  useEffect(
    () => () => {
      if (pending.current) clearTimeout(pending.current);
    },
    [],
  );

  if (campaign.isPending) return <PageLoader />;
  if (!campaign.data) return <PageHeader title={t('report.notFound')} />;
  const data = campaign.data;
  const { report } = data;
  const progress = progressOf(report);
  const points = report.timeline.map((point) => ({
    label: clock.format(point.at, 'dd/MM HH:mm'),
    value: point.delivered,
  }));

  return (
    <>
      <PageHeader title={t('report.title', { name: data.name })} />
      <Box sx={{ display: 'grid', gap: 2 }}>
        <Box>
          <Typography variant="h6" component="p" data-testid="campaign-report-status">
            {t(`status.${data.status}`)}:{' '}
            {t('report.delivered', { delivered: report.delivered, valid: report.validContacts })}
          </Typography>
          <LinearProgress
            variant="determinate"
            value={progress}
            aria-label={t('report.deliveredCard')}
            sx={{ height: 10, borderRadius: 5, mt: 1 }}
          />
        </Box>
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' },
          }}
        >
          <StatCard title={t('report.validContacts')} value={report.validContacts} />
          {data.confirmation && (
            <>
              <StatCard
                title={t('report.confirmationRequested')}
                value={report.confirmationRequested}
              />
              <StatCard title={t('report.confirmed')} value={report.confirmed} />
            </>
          )}
          <StatCard title={t('report.deliveredCard')} value={report.delivered} />
          <StatCard title={t('report.optedOut')} value={report.optedOut} />
          <StatCard
            title={t('report.whatsapp')}
            value={data.whatsapp?.name ?? t('fallback.whatsapp')}
          />
          <StatCard
            title={t('report.contactList')}
            value={data.contactList?.name ?? t('fallback.contactList')}
          />
          <StatCard
            title={t('report.scheduledAt')}
            value={clock.dateTime(data.scheduledAt) || t('fallback.scheduledAt')}
          />
          <StatCard
            title={t('report.completedAt')}
            value={clock.dateTime(data.completedAt) || t('fallback.completedAt')}
          />
        </Box>
        <Card variant="outlined">
          <CardContent>
            <Typography variant="h6" component="h2">
              {t('report.chart')}
            </Typography>
            <Box sx={{ height: 280 }}>
              <ResponsiveContainer width="100%" height="100%">
                <LineChart accessibilityLayer={false} data={points}>
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis dataKey="label" interval="preserveStartEnd" tick={{ fontSize: 12 }} />
                  <YAxis allowDecimals={false} width={40} />
                  <Tooltip />
                  <Line
                    type="monotone"
                    dataKey="value"
                    name={t('report.deliveredCard')}
                    stroke={palette.primary.main}
                    strokeWidth={2}
                    isAnimationActive={false}
                  />
                </LineChart>
              </ResponsiveContainer>
            </Box>
          </CardContent>
        </Card>
      </Box>
    </>
  );
}
