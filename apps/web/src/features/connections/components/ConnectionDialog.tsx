import {
  type ConnectionCreate,
  connectionCreateSchema,
  PROVIDERS,
  type ProviderName,
} from '@atendi/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCallback, useState } from 'react';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../app/api';
import { FormDialog } from '../../../app/components/FormDialog';
import { IdSelect } from '../../../app/components/IdSelect';
import { errorMessage } from '../../../app/errors';
import { applyServerFieldErrors, muiField, useValidationText } from '../../../app/forms';
import { toast } from '../../../app/toast';
import { useQueues } from '../../queues/api';
import { QueueSelect } from '../../queues/components/QueueSelect';
import { type ConnectionSummary, useSaveConnection } from '../api';

type NumberInput = number | string;

export interface ConnectionFormValues {
  name: string;
  provider: ProviderName;
  isDefault: boolean;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  queueIds: number[];
  transferQueueId: number | null;
  timeToTransfer: NumberInput;
  expiresTicket: NumberInput;
  expiresInactiveMessage: string;
  maxUseBotQueues: NumberInput;
  timeUseBotQueues: NumberInput;
}

const FORM_FIELDS = [
  'name',
  'provider',
  'isDefault',
  'greetingMessage',
  'complationMessage',
  'outOfHoursMessage',
  'ratingMessage',
  'queueIds',
  'transferQueueId',
  'timeToTransfer',
  'expiresTicket',
  'expiresInactiveMessage',
  'maxUseBotQueues',
  'timeUseBotQueues',
] as const;

const MESSAGE_FIELDS = [
  'greetingMessage',
  'complationMessage',
  'outOfHoursMessage',
  'ratingMessage',
] as const;

function defaultsFor(connection: ConnectionSummary | undefined): ConnectionFormValues {
  return {
    name: connection?.name ?? '',
    provider: connection?.provider ?? 'beta',
    isDefault: connection?.isDefault ?? false,
    greetingMessage: connection?.greetingMessage ?? '',
    complationMessage: connection?.complationMessage ?? '',
    outOfHoursMessage: connection?.outOfHoursMessage ?? '',
    ratingMessage: connection?.ratingMessage ?? '',
    queueIds: connection?.queues?.map((queue) => queue.id) ?? [],
    transferQueueId: connection?.transferQueueId ?? null,
    timeToTransfer: connection?.timeToTransfer ?? 0,
    expiresTicket: connection?.expiresTicket ?? 0,
    expiresInactiveMessage: connection?.expiresInactiveMessage ?? '',
    maxUseBotQueues: connection?.maxUseBotQueues ?? 3,
    timeUseBotQueues: connection?.timeUseBotQueues ?? 0,
  };
}

interface ConnectionDialogProps {
  open: boolean;
  onClose: () => void;
  /** The connection being edited; none to add one. */
  connection?: ConnectionSummary;
}

export function ConnectionDialog({ open, onClose, connection }: ConnectionDialogProps) {
  const { t } = useTranslation('connections');
  const validationText = useValidationText();
  const editing = connection !== undefined;
  const queues = useQueues({ enabled: open });
  const save = useSaveConnection();
  const [formError, setFormError] = useState<string | null>(null);

  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ConnectionFormValues, unknown, ConnectionCreate>({
    resolver: zodResolver(connectionCreateSchema) as unknown as Resolver<
      ConnectionFormValues,
      unknown,
      ConnectionCreate
    >,
    defaultValues: defaultsFor(connection),
  });

  // the server's own words for a field, in the user's language
  const fieldText = useCallback(
    (message: string | undefined) => {
      if (message === 'Duplicated') return t('fields.nameTaken');
      if (message === 'Unknown queue') return t('fields.unknownQueue');
      if (message && /number|integer/i.test(message)) return t('fields.minutes');
      return validationText(message);
    },
    [t, validationText],
  );

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      if (editing) await save.mutateAsync({ id: connection.id, data: values });
      else await save.mutateAsync({ data: values });
      toast.success(t('toasts.saved'));
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ERR_WAPP_GREETING_REQUIRED') {
        setError('greetingMessage', { type: 'server', message: errorMessage(error) });
      } else if (!applyServerFieldErrors(error, setError, FORM_FIELDS)) {
        setFormError(errorMessage(error));
      }
    }
  });

  const numberField = (
    name: 'timeToTransfer' | 'expiresTicket' | 'maxUseBotQueues' | 'timeUseBotQueues',
  ) => (
    <TextField
      id={`connection-${name}`}
      label={t(`fields.${name}`)}
      type="number"
      fullWidth
      error={Boolean(errors[name])}
      helperText={fieldText(errors[name]?.message)}
      slotProps={{ htmlInput: { min: 0, step: 1, inputMode: 'numeric' } }}
      {...muiField(register(name))}
    />
  );

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={editing ? t('dialog.editTitle') : t('dialog.addTitle')}
      onSubmit={onSubmit}
      submitLabel={editing ? t('common:actions.save') : t('common:actions.add')}
      pending={isSubmitting}
      maxWidth="md"
      contentSx={{
        display: 'grid',
        gap: 2,
        gridTemplateColumns: { sm: '1fr 1fr' },
        alignContent: 'start',
      }}
    >
      {formError && (
        <Alert severity="error" role="alert" sx={{ gridColumn: '1 / -1' }}>
          {formError}
        </Alert>
      )}
      <TextField
        id="connection-name"
        label={t('fields.name')}
        autoFocus
        fullWidth
        error={Boolean(errors.name)}
        helperText={fieldText(errors.name?.message)}
        slotProps={{ htmlInput: { 'aria-required': true, maxLength: 50 } }}
        {...muiField(register('name'))}
      />
      <Controller
        control={control}
        name="provider"
        render={({ field }) => (
          <TextField
            id="connection-provider"
            select
            label={t('fields.provider')}
            fullWidth
            name={field.name}
            value={field.value}
            onChange={(event) => field.onChange(event.target.value)}
            onBlur={field.onBlur}
            inputRef={field.ref}
            error={Boolean(errors.provider)}
            helperText={fieldText(errors.provider?.message)}
          >
            {PROVIDERS.map((provider) => (
              <MenuItem key={provider} value={provider}>
                {t(`providers.${provider}`)}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <Controller
        control={control}
        name="isDefault"
        render={({ field }) => (
          <FormControlLabel
            sx={{ gridColumn: '1 / -1' }}
            control={
              <Switch
                name={field.name}
                checked={Boolean(field.value)}
                onChange={(event) => field.onChange(event.target.checked)}
                onBlur={field.onBlur}
                inputRef={field.ref}
              />
            }
            label={t('fields.isDefault')}
          />
        )}
      />

      <Typography variant="overline" component="h3" sx={{ gridColumn: '1 / -1', lineHeight: 1.5 }}>
        {t('dialog.messages')}
      </Typography>
      {MESSAGE_FIELDS.map((name) => (
        <TextField
          key={name}
          id={`connection-${name}`}
          label={t(`fields.${name}`)}
          multiline
          minRows={2}
          maxRows={6}
          fullWidth
          sx={{ gridColumn: '1 / -1' }}
          error={Boolean(errors[name])}
          helperText={
            fieldText(errors[name]?.message) ??
            (name === 'greetingMessage' ? t('fields.greetingHelp') : undefined)
          }
          {...muiField(register(name))}
        />
      ))}

      <Typography variant="overline" component="h3" sx={{ gridColumn: '1 / -1', lineHeight: 1.5 }}>
        {t('dialog.routing')}
      </Typography>
      <Controller
        control={control}
        name="queueIds"
        render={({ field }) => (
          <QueueSelect
            id="connection-queues"
            sx={{ gridColumn: '1 / -1' }}
            error={Boolean(errors.queueIds)}
            helperText={fieldText(errors.queueIds?.message)}
            {...field}
          />
        )}
      />
      <Controller
        control={control}
        name="transferQueueId"
        render={({ field }) => (
          <IdSelect
            id="connection-transfer-queue"
            label={t('fields.transferQueue')}
            noneLabel={t('fields.noTransfer')}
            options={queues.data ?? []}
            field={field}
            error={Boolean(errors.transferQueueId)}
            helperText={fieldText(errors.transferQueueId?.message)}
          />
        )}
      />
      {numberField('timeToTransfer')}
      {numberField('expiresTicket')}
      <TextField
        id="connection-expiresInactiveMessage"
        label={t('fields.expiresInactiveMessage')}
        multiline
        maxRows={4}
        fullWidth
        error={Boolean(errors.expiresInactiveMessage)}
        helperText={fieldText(errors.expiresInactiveMessage?.message)}
        {...muiField(register('expiresInactiveMessage'))}
      />
      {numberField('maxUseBotQueues')}
      {numberField('timeUseBotQueues')}
    </FormDialog>
  );
}
