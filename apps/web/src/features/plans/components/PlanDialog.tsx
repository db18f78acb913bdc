import { PLAN_FLAGS, type Plan, type PlanCreate, planCreateSchema } from '@atendi/shared';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../app/components/FormDialog';
import { SwitchField } from '../../../app/components/FormFields';
import { MoneyField } from '../../../app/components/MoneyField';
import { muiField, submitRecord, useRecordForm, useValidationText } from '../../../app/forms';
import { toast } from '../../../app/toast';
import { useSavePlan } from '../api';

type PlanFormValues = {
  name: string;
  users: string;
  connections: string;
  queues: string;
  value: string;
} & Record<(typeof PLAN_FLAGS)[number], boolean>;

const LIMIT_FIELDS = ['users', 'connections', 'queues'] as const;
const FORM_FIELDS = ['name', ...LIMIT_FIELDS, 'value', ...PLAN_FLAGS] as const;

interface PlanDialogProps {
  open: boolean;
  onClose: () => void;
  plan?: Plan;
}

/** The super user's plan form: limits (0 is unlimited), the monthly value in BRL, the seven flags. */
export function PlanDialog({ open, onClose, plan }: PlanDialogProps) {
  const { t } = useTranslation('plans');
  const validationText = useValidationText();
  const save = useSavePlan();
  const editing = plan !== undefined;
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useRecordForm<PlanFormValues, PlanCreate>(planCreateSchema, {
    name: plan?.name ?? '',
    users: plan ? String(plan.users) : '0',
    connections: plan ? String(plan.connections) : '0',
    queues: plan ? String(plan.queues) : '0',
    value: plan ? String(plan.value) : '0',
    ...(Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, plan?.[flag] ?? false])) as Record<
      (typeof PLAN_FLAGS)[number],
      boolean
    >),
  });

  const message = useCallback(
    (text: string | undefined) =>
      text === 'Duplicated' ? t('errors.duplicated') : validationText(text),
    [t, validationText],
  );

  const onSubmit = handleSubmit(async (data) => {
    await submitRecord({
      save: () => save.mutateAsync({ id: plan?.id, data }),
      saved: t('toasts.saved'),
      onClose,
      setError,
      fields: FORM_FIELDS,
      otherwise: () => toast.error(t('errors.saveFailed')),
    });
  });

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={editing ? t('dialog.editTitle') : t('dialog.addTitle')}
      onSubmit={onSubmit}
      submitLabel={editing ? t('common:actions.save') : t('common:actions.add')}
      pending={isSubmitting}
      contentSx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}
    >
      <Box sx={{ gridColumn: '1 / -1' }}>
        <TextField
          id="plan-name"
          label={t('fields.name')}
          fullWidth
          autoFocus
          autoComplete="off"
          error={Boolean(errors.name)}
          helperText={message(errors.name?.message)}
          slotProps={{ htmlInput: { 'aria-required': true, maxLength: 50 } }}
          {...muiField(register('name'))}
        />
      </Box>
      {LIMIT_FIELDS.map((name) => (
        <TextField
          key={name}
          id={`plan-${name}`}
          label={t(`fields.${name}`)}
          type="number"
          fullWidth
          error={Boolean(errors[name])}
          helperText={message(errors[name]?.message) ?? t('fields.zeroIsUnlimited')}
          slotProps={{ htmlInput: { min: 0, step: '1', inputMode: 'numeric' } }}
          {...muiField(register(name))}
        />
      ))}
      <MoneyField
        control={control}
        name="value"
        id="plan-value"
        label={t('fields.value')}
        error={Boolean(errors.value)}
        helperText={message(errors.value?.message)}
      />
      <Box sx={{ gridColumn: '1 / -1' }}>
        <Typography variant="subtitle2" component="h3">
          {t('flagsTitle')}
        </Typography>
      </Box>
      {PLAN_FLAGS.map((flag) => (
        <SwitchField key={flag} control={control} name={flag} label={t(`flags.${flag}`)} />
      ))}
    </FormDialog>
  );
}
