import {
  type CompanySchedule,
  type CompanySchedulesUpdate,
  companySchedulesUpdateSchema,
  oneSpan,
} from '@atendi/shared';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { WeekScheduleFields } from '../../../app/components/WeekScheduleFields';
import { toastError } from '../../../app/errors';
import { useRecordForm } from '../../../app/forms';
import { toast } from '../../../app/toast';
import { useSaveCompanySchedules } from '../api';

interface HoursFormValues {
  schedules: CompanySchedule[];
}

/** The company's opening hours, saved together with one button. */
export function CompanyHoursForm({
  companyId,
  schedules,
}: {
  companyId: number;
  schedules: CompanySchedule[];
}) {
  const { t } = useTranslation('settings');
  const save = useSaveCompanySchedules(companyId);
  const {
    control,
    handleSubmit,
    reset,
    formState: { isDirty, isSubmitting },
  } = useRecordForm<HoursFormValues, CompanySchedulesUpdate>(
    companySchedulesUpdateSchema,
    { schedules: schedules.map(oneSpan) },
    { mode: 'onTouched' },
  );

  // another admin's save shows up, unless this one is in the middle of an edit
  useEffect(() => {
    if (!isDirty) reset({ schedules: schedules.map(oneSpan) });
  }, [schedules, isDirty, reset]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      const company = await save.mutateAsync(values.schedules);
      reset({ schedules: company.schedules.map(oneSpan) });
      toast.success(t('toasts.schedulesSaved'));
    } catch (error) {
      toastError(error);
    }
  });

  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <Typography color="text.secondary" sx={{ mb: 2.5 }}>
        {t('schedules.intro')}
      </Typography>
      <WeekScheduleFields control={control} name="schedules" disabled={isSubmitting} />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 3 }}>
        <Button
          type="submit"
          variant="contained"
          disabled={isSubmitting}
          startIcon={
            isSubmitting ? <CircularProgress size={18} color="inherit" aria-hidden /> : null
          }
        >
          {t('schedules.save')}
        </Button>
      </Box>
    </Box>
  );
}
