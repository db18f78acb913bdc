import { DASHBOARD_PERIODS } from '@atendi/shared';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import type { DashboardFilter, FilterType } from '../period';

/** Filter by dates or by a period of days (spec core 2 and 9). */
export function DashboardFilters({
  filter,
  onChange,
}: {
  filter: DashboardFilter;
  onChange: (filter: DashboardFilter) => void;
}) {
  const { t } = useTranslation('dashboard');
  const field = { size: 'small' as const, sx: { minWidth: { xs: '100%', sm: 180 } } };
  return (
    <Paper
      variant="outlined"
      component="form"
      role="search"
      aria-label={t('filter.label')}
      onSubmit={(event) => event.preventDefault()}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mb: 2, p: 2 }}
    >
      <TextField
        {...field}
        select
        id="dashboard-filter-type"
        label={t('filter.type')}
        value={filter.type}
        onChange={(event) => onChange({ ...filter, type: event.target.value as FilterType })}
      >
        <MenuItem value="date">{t('filter.byDate')}</MenuItem>
        <MenuItem value="period">{t('filter.byPeriod')}</MenuItem>
      </TextField>
      {filter.type === 'date' ? (
        (['dateFrom', 'dateTo'] as const).map((end) => (
          <TextField
            {...field}
            key={end}
            id={`dashboard-${end}`}
            type="date"
            label={t(`filter.${end}`)}
            value={filter[end]}
            onChange={(event) => onChange({ ...filter, [end]: event.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        ))
      ) : (
        <TextField
          {...field}
          select
          id="dashboard-period"
          label={t('filter.period')}
          value={filter.days}
          onChange={(event) => onChange({ ...filter, days: Number(event.target.value) })}
        >
          <MenuItem value={0}>{t('filter.noPeriod')}</MenuItem>
          {DASHBOARD_PERIODS.map((days) => (
            <MenuItem key={days} value={days}>
              {t('filter.lastDays', { count: days })}
            </MenuItem>
          ))}
        </TextField>
      )}
    </Paper>
  );
}
