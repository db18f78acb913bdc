import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { PageHeader } from './PageHeader';

/** Stands in for a page that is not built yet, so the menu and links already work. */
export function PlaceholderPage({ menuKey }: { menuKey: string }) {
  const { t } = useTranslation('layout');
  const title = t(`menu.${menuKey}`);
  return (
    <>
      <PageHeader title={title} />
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography color="text.secondary">{t('placeholder', { page: title })}</Typography>
      </Paper>
    </>
  );
}
