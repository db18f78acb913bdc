import {
  type ConnectionCreate,
  connectionCreateSchema,
  PROVIDERS,
  type ProviderName,
} from '@atendi/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useCallback, useId, useState } from 'react';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../app/api';
import { errorMessage } from '../../../app/errors';
import { applyServerFieldErrors, muiField, useValidationText } from '../../../app/forms';
import { toast } from '../../../app/toast';
import { useQueues } from '../../queues/api';
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
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
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

  const queueById = new Map((queues.data ?? []).map((queue) => [queue.id, queue]));
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
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="md"
      fullScreen={fullScreen}
    >
      <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: 'contents' }}>
        <DialogTitle id={titleId}>
          {editing ? t('dialog.editTitle') : t('dialog.addTitle')}
        </DialogTitle>
        <DialogContent
          dividers
          sx={{
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

          <Typography
            variant="overline"
            component="h3"
            sx={{ gridColumn: '1 / -1', lineHeight: 1.5 }}
          >
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

          <Typography
            variant="overline"
            component="h3"
            sx={{ gridColumn: '1 / -1', lineHeight: 1.5 }}
          >
            {t('dialog.routing')}
          </Typography>
          <Controller
            control={control}
            name="queueIds"
            render={({ field }) => (
              <TextField
                id="connection-queues"
                select
                label={t('fields.queues')}
                fullWidth
                sx={{ gridColumn: '1 / -1' }}
                name={field.name}
                value={field.value ?? []}
                onChange={(event) => {
                  const value = event.target.value as unknown as number[] | string;
                  field.onChange(typeof value === 'string' ? value.split(',').map(Number) : value);
                }}
                onBlur={field.onBlur}
                inputRef={field.ref}
                error={Boolean(errors.queueIds) || queues.isError}
                helperText={
                  fieldText(errors.queueIds?.message) ??
                  (queues.isError ? t('fields.queuesFailed') : undefined)
                }
                slotProps={{
                  select: {
                    multiple: true,
                    renderValue: (selected) => (
                      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                        {(selected as number[]).map((id) => {
                          const queue = queueById.get(id);
                          return (
                            <Chip
                              key={id}
                              size="small"
                              label={queue?.name ?? `#${id}`}
                              sx={
                                queue?.color
                                  ? {
                                      bgcolor: queue.color,
                                      color: theme.palette.getContrastText(queue.color),
                                    }
                                  : undefined
                              }
                            />
                          );
                        })}
                      </Box>
                    ),
                  },
                }}
              >
                {(queues.data ?? []).length === 0 && (
                  <MenuItem disabled value="">
                    {queues.isPending ? t('common:loading') : t('fields.noQueues')}
                  </MenuItem>
                )}
                {(queues.data ?? []).map((queue) => (
                  <MenuItem key={queue.id} value={queue.id}>
                    <Box
                      component="span"
                      aria-hidden
                      sx={{
                        width: 12,
                        height: 12,
                        borderRadius: '50%',
                        bgcolor: queue.color,
                        mr: 1,
                        flexShrink: 0,
                      }}
                    />
                    {queue.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <Controller
            control={control}
            name="transferQueueId"
            render={({ field }) => (
              <TextField
                id="connection-transfer-queue"
                select
                label={t('fields.transferQueue')}
                fullWidth
                name={field.name}
                value={field.value ?? ''}
                onChange={(event) => {
                  const value = event.target.value as number | string;
                  field.onChange(value === '' ? null : Number(value));
                }}
                onBlur={field.onBlur}
                inputRef={field.ref}
                error={Boolean(errors.transferQueueId)}
                helperText={fieldText(errors.transferQueueId?.message)}
              >
                <MenuItem value="">
                  <em>{t('fields.noTransfer')}</em>
                </MenuItem>
                {(queues.data ?? []).map((queue) => (
                  <MenuItem key={queue.id} value={queue.id}>
                    {queue.name}
                  </MenuItem>
                ))}
              </TextField>
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
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onClose} disabled={isSubmitting}>
            {t('common:actions.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={isSubmitting}
            startIcon={
              isSubmitting ? <CircularProgress size={18} color="inherit" aria-hidden /> : null
            }
          >
            {editing ? t('common:actions.save') : t('common:actions.add')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
