import {
  boundedString,
  type Company,
  type CompanyCreate,
  emailField,
  MSG,
  type Plan,
  passwordField,
  RECURRENCES,
  type Recurrence,
} from '@atendi/shared';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ApiError } from '../../../app/api';
import { FormDialog } from '../../../app/components/FormDialog';
import { SelectField, SwitchField } from '../../../app/components/FormFields';
import { errorMessage } from '../../../app/errors';
import { muiField, submitRecord, useRecordForm, useValidationText } from '../../../app/forms';
import { toast } from '../../../app/toast';
import { useSaveCompany } from '../api';
import { dueDateOrNull } from '../dueDate';

export interface CompanyFormValues {
  name: string;
  email: string;
  phone: string;
  planId: string;
  status: boolean;
  dueDate: string;
  recurrence: Recurrence;
  billingName: string;
  addressZipCode: string;
  addressStreet: string;
  addressState: string;
  addressCity: string;
  addressDistrict: string;
  password: string;
}

const BILLING_FIELDS = [
  'billingName',
  'addressZipCode',
  'addressStreet',
  'addressState',
  'addressCity',
  'addressDistrict',
] as const;

const FORM_FIELDS = [
  'name',
  'email',
  'phone',
  'planId',
  'status',
  'dueDate',
  'recurrence',
  ...BILLING_FIELDS,
  'password',
] as const;

const companyFormSchema = z.object({
  name: boundedString(2, 50),
  email: emailField,
  phone: z.string().max(20, MSG.tooLong),
  planId: z.string().min(1, MSG.required),
  status: z.boolean(),
  dueDate: z.string(),
  recurrence: z.enum(RECURRENCES),
  billingName: z.string().max(100, MSG.tooLong),
  addressZipCode: z.string().max(20, MSG.tooLong),
  addressStreet: z.string().max(200, MSG.tooLong),
  addressState: z.string().max(50, MSG.tooLong),
  addressCity: z.string().max(100, MSG.tooLong),
  addressDistrict: z.string().max(100, MSG.tooLong),
  password: z.union([z.literal(''), passwordField]),
});

interface CompanyDialogProps {
  open: boolean;
  onClose: () => void;
  company?: Company;
  plans: readonly Plan[];
}

/** The super user's company form: e-mail and plan required, billing name and address. */
export function CompanyDialog({ open, onClose, company, plans }: CompanyDialogProps) {
  const { t } = useTranslation('companies');
  const validationText = useValidationText();
  const save = useSaveCompany();
  const editing = company !== undefined;
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useRecordForm<CompanyFormValues>(companyFormSchema, {
    name: company?.name ?? '',
    email: company?.email ?? '',
    phone: company?.phone ?? '',
    planId: company ? String(company.planId) : '',
    status: company?.status ?? true,
    dueDate: company?.dueDate ?? '',
    recurrence: company?.recurrence ?? 'MENSAL',
    billingName: company?.billingName ?? '',
    addressZipCode: company?.addressZipCode ?? '',
    addressStreet: company?.addressStreet ?? '',
    addressState: company?.addressState ?? '',
    addressCity: company?.addressCity ?? '',
    addressDistrict: company?.addressDistrict ?? '',
    password: '',
  });

  const message = useCallback(
    (text: string | undefined) =>
      text === 'Duplicated' ? t('errors.duplicated') : validationText(text),
    [t, validationText],
  );

  const onSubmit = handleSubmit(async (values) => {
    const { password, planId, dueDate, phone, ...rest } = values;
    const data: CompanyCreate = {
      ...rest,
      phone: phone.trim() || null,
      planId: Number(planId),
      dueDate: dueDateOrNull(dueDate),
      ...(password && !editing ? { password } : {}),
    };
    await submitRecord({
      save: () => save.mutateAsync({ id: company?.id, data }),
      saved: t('toasts.saved'),
      onClose,
      setError,
      fields: FORM_FIELDS,
      handle: (error) => {
        if (error instanceof ApiError && error.code === 'ERR_DUPLICATED_COMPANY') {
          setError(
            'name',
            { type: 'server', message: t('errors.duplicated') },
            { shouldFocus: true },
          );
          toast.error(t('errors.saveFailed'));
          return true;
        }
        if (error instanceof ApiError && error.code === 'ERR_DUPLICATED_EMAIL') {
          setError(
            'email',
            { type: 'server', message: errorMessage(error) },
            { shouldFocus: true },
          );
          return true;
        }
        return false;
      },
      otherwise: () => toast.error(t('errors.saveFailed')),
    });
  });

  const text = (name: (typeof FORM_FIELDS)[number], extra: Record<string, unknown> = {}) => (
    <TextField
      id={`company-${name}`}
      label={t(`fields.${name}`)}
      fullWidth
      autoComplete="off"
      error={Boolean(errors[name])}
      helperText={message(errors[name]?.message)}
      {...muiField(register(name))}
      {...extra}
    />
  );

  const planOptions = plans.map((plan) => ({ value: String(plan.id), label: plan.name }));
  // the form offers monthly billing; a company on another recurrence keeps it
  const recurrences = RECURRENCES.filter(
    (recurrence) => recurrence === 'MENSAL' || recurrence === company?.recurrence,
  ).map((recurrence) => ({ value: recurrence, label: t(`recurrence.${recurrence}`) }));

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={editing ? t('dialog.editTitle') : t('dialog.addTitle')}
      onSubmit={onSubmit}
      submitLabel={editing ? t('common:actions.save') : t('common:actions.add')}
      pending={isSubmitting}
      maxWidth="md"
      contentSx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}
    >
      {text('name', { autoFocus: true, slotProps: { htmlInput: { 'aria-required': true } } })}
      {text('email', { type: 'email', slotProps: { htmlInput: { 'aria-required': true } } })}
      {text('phone', { type: 'tel' })}
      <SelectField
        control={control}
        name="planId"
        id="company-planId"
        label={t('fields.planId')}
        options={planOptions}
        fallback=""
        error={Boolean(errors.planId)}
        helperText={message(errors.planId?.message)}
      />
      {text('dueDate', { type: 'date', slotProps: { inputLabel: { shrink: true } } })}
      <SelectField
        control={control}
        name="recurrence"
        id="company-recurrence"
        label={t('fields.recurrence')}
        options={recurrences}
      />
      <SwitchField control={control} name="status" label={t('fields.status')} />
      {!editing &&
        text('password', {
          type: 'password',
          autoComplete: 'new-password',
          helperText: message(errors.password?.message) ?? t('fields.passwordHelp'),
        })}
      <Box sx={{ gridColumn: '1 / -1' }}>
        <Typography variant="subtitle2" component="h3">
          {t('billingTitle')}
        </Typography>
      </Box>
      {BILLING_FIELDS.map((name) => (
        <Box key={name}>{text(name)}</Box>
      ))}
    </FormDialog>
  );
}
