import type { DashboardAttendant } from '@atendi/shared';
import DownloadIcon from '@mui/icons-material/Download';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Rating from '@mui/material/Rating';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { csvText, downloadText } from '../../../app/csv';
import { formatMinutes } from '../period';

const RATING_LABELS = ['unsatisfied', 'satisfied', 'verySatisfied'] as const;

function RatingCell({ rating }: { rating: number | null }) {
  const { t, i18n } = useTranslation('dashboard');
  if (rating === null) {
    return (
      <Typography variant="body2" color="text.secondary">
        {t('attendants.noRating')}
      </Typography>
    );
  }
  const label = t(`ratings.${RATING_LABELS[Math.min(3, Math.max(1, Math.round(rating))) - 1]}`);
  const text = t('attendants.rating', {
    value: rating.toLocaleString(i18n.language, { maximumFractionDigits: 1 }),
    label,
  });
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <Rating value={rating} max={3} precision={0.5} readOnly size="small" aria-hidden />
      <Typography variant="body2">{text}</Typography>
    </Box>
  );
}

function Presence({ online }: { online: boolean }) {
  const { t } = useTranslation('dashboard');
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <Box
        aria-hidden
        sx={{
          width: 10,
          height: 10,
          borderRadius: '50%',
          flexShrink: 0,
          bgcolor: online ? 'success.main' : 'error.main',
        }}
      />
      <Typography variant="body2">
        {online ? t('attendants.online') : t('attendants.offline')}
      </Typography>
    </Box>
  );
}

export const ATTENDANTS_CSV = 'atendentes.csv';

/** Rows of skeletons while the attendants load, in place of a false "Nenhum atendente". */
const LOADING_ROWS = 3;

/**
 * Each attendant with the period's rating, average conversation time and presence; skeleton rows
 * while `loading`.
 */
export function AttendantsTable({
  attendants = [],
  loading = false,
}: {
  attendants?: DashboardAttendant[];
  loading?: boolean;
}) {
  const { t } = useTranslation('dashboard');
  /** The table as a spreadsheet: figures as numbers (minutes, 1-3), presence in words. */
  const exportCsv = () =>
    downloadText(
      csvText(
        [
          t('attendants.name'),
          t('attendants.ratingHeader'),
          t('attendants.tickets'),
          t('attendants.avgSupportMinutes'),
          t('attendants.status'),
        ],
        attendants.map((attendant) => [
          attendant.name,
          attendant.rating === null ? '' : attendant.rating.toFixed(1),
          attendant.tickets,
          Math.round(attendant.avgSupportTime),
          attendant.online ? t('attendants.online') : t('attendants.offline'),
        ]),
      ),
      ATTENDANTS_CSV,
    );
  return (
    <Paper variant="outlined" component="section">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, p: 2, pb: 1, flexWrap: 'wrap' }}>
        <Typography id="dashboard-attendants-title" variant="h6" component="h2" sx={{ flex: 1 }}>
          {t('attendants.title')}
        </Typography>
        <Button
          size="small"
          variant="outlined"
          startIcon={<DownloadIcon />}
          onClick={exportCsv}
          disabled={loading || attendants.length === 0}
        >
          {t('attendants.export')}
        </Button>
      </Box>
      {/* scrolls sideways on a phone: reachable with the keyboard */}
      <TableContainer tabIndex={0} role="region" aria-labelledby="dashboard-attendants-title">
        <Table size="small" aria-labelledby="dashboard-attendants-title" aria-busy={loading}>
          <TableHead>
            <TableRow>
              <TableCell>{t('attendants.name')}</TableCell>
              <TableCell>{t('attendants.ratingHeader')}</TableCell>
              <TableCell align="right">{t('attendants.tickets')}</TableCell>
              <TableCell>{t('attendants.avgSupportTime')}</TableCell>
              <TableCell>{t('attendants.status')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {attendants.map((attendant) => (
              <TableRow key={attendant.id}>
                <TableCell
                  component="th"
                  scope="row"
                  sx={{ minWidth: 120, overflowWrap: 'anywhere' }}
                >
                  {attendant.name}
                </TableCell>
                <TableCell sx={{ minWidth: 150 }}>
                  <RatingCell rating={attendant.rating} />
                </TableCell>
                <TableCell align="right">{attendant.tickets}</TableCell>
                <TableCell>{formatMinutes(attendant.avgSupportTime)}</TableCell>
                <TableCell>
                  <Presence online={attendant.online} />
                </TableCell>
              </TableRow>
            ))}
            {loading &&
              Array.from({ length: LOADING_ROWS }, (_, row) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholders with nothing else to tell them apart
                <TableRow key={row} aria-hidden>
                  {[120, 150, 24, 48, 72].map((width, cell) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the columns' fixed order
                    <TableCell key={cell}>
                      <Skeleton width={width} />
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            {!loading && attendants.length === 0 && (
              <TableRow>
                <TableCell colSpan={5}>{t('attendants.empty')}</TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  );
}
