import {
  type ConnectionCreate,
  connectionCreateSchema,
  PROVIDERS,
  type ProviderName,
} from '@atendi/shared';
import Alert from '@mui/material/Alert';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCallback, useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../app/api';
import { useSessionUser } from '../../../app/auth';
import { FormDialog } from '../../../app/components/FormDialog';
import { SelectField, SwitchField } from '../../../app/components/FormFields';
import { EmptySelect, IdSelect } from '../../../app/components/IdSelect';
import { errorMessage } from '../../../app/errors';
import { muiField, submitRecord, useRecordForm, useValidationText } from '../../../app/forms';
import { canAccess } from '../../../app/layout/menu';
import { usePromptOptions } from '../../prompts/api';
import { useIntegrationOptions } from '../../queue-integrations/api';
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
  /** The bot that answers the connection's conversations before any queue; none when null. */
  integrationId: number | null;
  /** The AI prompt that answers the connection's conversations before any queue. */
  promptId: number | null;
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
  'integrationId',
  'promptId',
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
    integrationId: connection?.integrationId ?? null,
    promptId: connection?.promptId ?? null,
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
  const me = useSessionUser();
  // each choice needs its plan flag; without it the select says there is nothing to choose
  const usesIntegrations = canAccess(me, { permission: 'integrations:use' });
  const usesPrompts = canAccess(me, { permission: 'prompts:use' });
  const integrations = useIntegrationOptions({ enabled: usesIntegrations && open });
  const prompts = usePromptOptions({ enabled: usesPrompts && open });
  const [formError, setFormError] = useState<string | null>(null);

  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useRecordForm<ConnectionFormValues, ConnectionCreate>(
    connectionCreateSchema,
    defaultsFor(connection),
  );

  // the server's own words for a field, in the user's language
  const fieldText = useCallback(
    (message: string | undefined) => {
      if (message === 'Duplicated') return t('fields.nameTaken');
      if (message === 'Unknown queue') return t('fields.unknownQueue');
      if (message === 'Unknown integration') return t('fields.unknownIntegration');
      if (message === 'Unknown prompt') return t('fields.unknownPrompt');
      if (message && /number|integer/i.test(message)) return t('fields.minutes');
      return validationText(message);
    },
    [t, validationText],
  );

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    await submitRecord({
      save: () =>
        save.mutateAsync(editing ? { id: connection.id, data: values } : { data: values }),
      saved: t('toasts.saved'),
      onClose,
      setError,
      fields: FORM_FIELDS,
      handle: (error) => {
        if (!(error instanceof ApiError && error.code === 'ERR_WAPP_GREETING_REQUIRED')) {
          return false;
        }
        setError('greetingMessage', { type: 'server', message: errorMessage(error) });
        return true;
      },
      // shown in the dialog, above its fields
      otherwise: (error) => setFormError(errorMessage(error)),
    });
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
      <SelectField
        control={control}
        name="provider"
        id="connection-provider"
        label={t('fields.provider')}
        options={PROVIDERS.map((value) => ({ value, label: t(`providers.${value}`) }))}
        error={Boolean(errors.provider)}
        helperText={fieldText(errors.provider?.message)}
      />
      <SwitchField
        control={control}
        name="isDefault"
        label={t('fields.isDefault')}
        sx={{ gridColumn: '1 / -1' }}
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

      <Typography variant="overline" component="h3" sx={{ gridColumn: '1 / -1', lineHeight: 1.5 }}>
        {t('dialog.automation')}
      </Typography>
      {usesIntegrations ? (
        <Controller
          control={control}
          name="integrationId"
          render={({ field }) => (
            <IdSelect
              id="connection-integration"
              label={t('fields.integration')}
              noneLabel={t('fields.noIntegrationChosen')}
              options={integrations.data ?? []}
              field={field}
              error={Boolean(errors.integrationId)}
              helperText={fieldText(errors.integrationId?.message) ?? t('fields.integrationHelp')}
            />
          )}
        />
      ) : (
        <EmptySelect
          id="connection-integration"
          label={t('fields.integration')}
          text={t('fields.noIntegration')}
        />
      )}
      {usesPrompts ? (
        <Controller
          control={control}
          name="promptId"
          render={({ field }) => (
            <IdSelect
              id="connection-prompt"
              label={t('fields.prompt')}
              noneLabel={t('fields.noPromptChosen')}
              options={prompts.data ?? []}
              field={field}
              error={Boolean(errors.promptId)}
              helperText={fieldText(errors.promptId?.message) ?? t('fields.promptHelp')}
            />
          )}
        />
      ) : (
        <EmptySelect
          id="connection-prompt"
          label={t('fields.prompt')}
          text={t('fields.noPrompt')}
        />
      )}
    </FormDialog>
  );
}
