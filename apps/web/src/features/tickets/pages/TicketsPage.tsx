import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageHeader } from '../../../app/components/PageHeader';

/** The ticket screen's place in the app; the inbox itself comes with the tickets feature. */
export function TicketsPage() {
  const { t } = useTranslation('layout');
  const { uuid } = useParams();
  const title = t('menu.tickets');
  return (
    <>
      <PageHeader title={title} />
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography color="text.secondary">{t('placeholder', { page: title })}</Typography>
        {uuid && (
          <Typography variant="body2" sx={{ mt: 1 }} data-testid="ticket-uuid">
            {uuid}
          </Typography>
        )}
      </Paper>
    </>
  );
}
