import {
  type CompanySchedule,
  DEFAULT_SCHEDULES,
  oneSpan,
  type Queue,
  type QueueCreate,
  queueCreateSchema,
  weekSchedulesSchema,
} from '@atendi/shared';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import { hslToRgb, rgbToHex } from '@mui/material/styles';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import { type ReactNode, useCallback, useEffect, useId, useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ApiError } from '../../../app/api';
import { useSessionUser } from '../../../app/auth';
import { FormDialog } from '../../../app/components/FormDialog';
import { EmptySelect, IdSelect } from '../../../app/components/IdSelect';
import { WeekScheduleFields } from '../../../app/components/WeekScheduleFields';
import { muiField, submitRecord, useRecordForm, useValidationText } from '../../../app/forms';
import { canAccess } from '../../../app/layout/menu';
import { toast } from '../../../app/toast';
import { usePromptOptions } from '../../prompts/api';
import { useIntegrationOptions } from '../../queue-integrations/api';
import { useSaveQueue } from '../api';
import { QueueOptionsEditor } from './QueueOptionsEditor';

export interface QueueFormValues {
  name: string;
  color: string;
  /** As typed; empty is no order. */
  orderQueue: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  complationMessage: string;
  ratingMessage: string;
  /** The queue's opening hours, read when the company manages hours by queue. */
  schedules: CompanySchedule[];
  /** The bot (typebot, dialogflow, n8n, webhook) of the queue's tickets; none when null. */
  integrationId: number | null;
  /** The AI prompt that answers the queue's tickets; none when null. */
  promptId: number | null;
}

const NOT_A_NUMBER = 'Not a number';

/** The shared queue schema, with the order as the text its field holds. */
const queueFormSchema = queueCreateSchema
  .pick({
    name: true,
    color: true,
    greetingMessage: true,
    outOfHoursMessage: true,
    complationMessage: true,
    ratingMessage: true,
  })
  .extend({
    orderQueue: z
      .string()
      .trim()
      .regex(/^\d{0,5}$/, NOT_A_NUMBER),
    schedules: weekSchedulesSchema,
    integrationId: z.number().int().positive().nullable(),
    promptId: z.number().int().positive().nullable(),
  });

const FORM_FIELDS = [
  'name',
  'color',
  'orderQueue',
  'greetingMessage',
  'outOfHoursMessage',
  'complationMessage',
  'ratingMessage',
  'integrationId',
  'promptId',
] as const;

/** The colours a new queue is offered first, in order: distinct hues that carry white text. */
const QUEUE_COLORS = [
  '#1976d2',
  '#2e7d32',
  '#d32f2f',
  '#ed6c02',
  '#7b1fa2',
  '#00796b',
  '#c2185b',
  '#0288d1',
  '#5d4037',
  '#303f9f',
  '#689f38',
  '#455a64',
];
const GOLDEN_ANGLE = 137.508;

/**
 * A colour no queue of the company uses (the server refuses a taken one): the first free one of
 * the list, then hues a golden angle apart until one is free.
 */
export function freeQueueColor(taken: readonly string[]): string {
  const used = new Set(taken.map((color) => color.toLowerCase()));
  const listed = QUEUE_COLORS.find((color) => !used.has(color));
  if (listed) return listed;
  for (let step = 1; ; step += 1) {
    const hue = Math.round((step * GOLDEN_ANGLE) % 360);
    const color = rgbToHex(hslToRgb(`hsl(${hue}, 60%, ${35 + (step % 3) * 5}%)`));
    if (!used.has(color)) return color;
  }
}
/** What `<input type="color">` can show: #rrggbb only. */
const pickerValue = (color: string) => (/^#[0-9a-f]{6}$/i.test(color) ? color : '#000000');

type QueueTab = 'data' | 'hours' | 'options';

interface QueueDialogProps {
  open: boolean;
  onClose: () => void;
  /** The queue being edited; none to add one. */
  queue?: Queue;
  /** The colours the company's queues use, so a new queue is offered a free one. */
  takenColors?: readonly string[];
}

export function QueueDialog({ open, onClose, queue, takenColors = [] }: QueueDialogProps) {
  const { t } = useTranslation('queues');
  const validationText = useValidationText();
  const save = useSaveQueue();
  const editing = queue !== undefined;
  const [tab, setTab] = useState<QueueTab>('data');
  const tabsId = useId();

  const {
    register,
    control,
    handleSubmit,
    setError,
    setValue,
    getValues,
    getFieldState,
    formState: { errors, isSubmitting },
  } = useRecordForm<QueueFormValues>(queueFormSchema, {
    name: queue?.name ?? '',
    color: queue?.color ?? freeQueueColor(takenColors),
    orderQueue: queue?.orderQueue == null ? '' : String(queue.orderQueue),
    greetingMessage: queue?.greetingMessage ?? '',
    outOfHoursMessage: queue?.outOfHoursMessage ?? '',
    complationMessage: queue?.complationMessage ?? '',
    ratingMessage: queue?.ratingMessage ?? '',
    // Our span only: the original's two periods, answered too, would decide over an edited span.
    schedules: queue?.schedules.length ? queue.schedules.map(oneSpan) : DEFAULT_SCHEDULES,
    integrationId: queue?.integrationId ?? null,
    promptId: queue?.promptId ?? null,
  });
  // Opened before the company's queues were read, a new queue was offered a colour one of them
  // may use: offered again once they are known, unless the person chose one.
  const takenKey = takenColors.join(',');
  useEffect(() => {
    if (editing || getFieldState('color').isDirty) return;
    const taken = takenKey ? takenKey.split(',') : [];
    const offered = getValues('color').toLowerCase();
    if (taken.some((color) => color.toLowerCase() === offered)) {
      setValue('color', freeQueueColor(taken));
    }
  }, [editing, takenKey, getFieldState, getValues, setValue]);
  const me = useSessionUser();
  const usesPrompts = canAccess(me, { permission: 'prompts:use' });
  const promptOptions = usePromptOptions({ enabled: usesPrompts && open });
  const usesIntegrations = canAccess(me, { permission: 'integrations:use' });
  const integrationOptions = useIntegrationOptions({ enabled: usesIntegrations && open });

  const message = useCallback(
    (text: string | undefined) => {
      if (text === 'Duplicated') return t('validation.nameTaken');
      if (text === NOT_A_NUMBER) return t('validation.number');
      if (text === 'Unknown integration') return t('validation.unknownIntegration');
      if (text === 'Unknown prompt') return t('validation.unknownPrompt');
      return validationText(text);
    },
    [t, validationText],
  );

  const onSubmit = handleSubmit(
    async (values) => {
      const data: QueueCreate = {
        ...values,
        orderQueue: values.orderQueue.trim() === '' ? null : Number(values.orderQueue),
      };
      await submitRecord({
        save: () => save.mutateAsync(editing ? { id: queue.id, data } : { data }),
        saved: t('toasts.saved'),
        onClose,
        setError,
        fields: FORM_FIELDS,
        handle: (error) => {
          setTab('data');
          if (error instanceof ApiError && error.code === 'ERR_QUEUE_COLOR_ALREADY_EXISTS') {
            setError('color', { type: 'server', message: t('validation.colorTaken') });
            return true;
          }
          if (error instanceof ApiError && error.code === 'ERR_NO_PERMISSION' && !editing) {
            // the plan's queue limit, answered as connections answer theirs
            toast.error(t('toasts.limit'));
            return true;
          }
          return false;
        },
      });
    },
    // a field of another tab is wrong: show it
    (invalid) => setTab(invalid.schedules && Object.keys(invalid).length === 1 ? 'hours' : 'data'),
  );

  const panel = (name: QueueTab, children: ReactNode) => (
    <Box
      role="tabpanel"
      id={`${tabsId}-${name}-panel`}
      aria-labelledby={`${tabsId}-${name}`}
      hidden={tab !== name}
      sx={{ display: tab === name ? 'grid' : 'none', gap: 2, pt: 1 }}
    >
      {children}
    </Box>
  );

  const text = (name: keyof QueueFormValues, rows = 3) => (
    <TextField
      id={`queue-${name}`}
      label={t(`fields.${name}`)}
      multiline
      minRows={rows}
      fullWidth
      error={Boolean(errors[name])}
      helperText={message(errors[name]?.message)}
      slotProps={{ htmlInput: { maxLength: 10_000 } }}
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
      contentSx={{ display: 'block', pt: 0 }}
    >
      <Tabs
        value={tab}
        onChange={(_event, next: QueueTab) => setTab(next)}
        aria-label={t('dialog.tabs')}
        variant="scrollable"
        allowScrollButtonsMobile
        sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}
      >
        <Tab
          value="data"
          label={t('dialog.dataTab')}
          id={`${tabsId}-data`}
          aria-controls={`${tabsId}-data-panel`}
        />
        <Tab
          value="hours"
          label={t('dialog.hoursTab')}
          id={`${tabsId}-hours`}
          aria-controls={`${tabsId}-hours-panel`}
        />
        <Tab
          value="options"
          label={t('dialog.optionsTab')}
          id={`${tabsId}-options`}
          aria-controls={`${tabsId}-options-panel`}
        />
      </Tabs>
      {panel(
        'data',
        <>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '2fr 1fr 1fr' } }}>
            <TextField
              id="queue-name"
              label={t('fields.name')}
              autoComplete="off"
              autoFocus
              fullWidth
              error={Boolean(errors.name)}
              helperText={message(errors.name?.message)}
              slotProps={{ htmlInput: { 'aria-required': true, maxLength: 50 } }}
              {...muiField(register('name'))}
            />
            <Controller
              control={control}
              name="color"
              render={({ field }) => (
                <TextField
                  id="queue-color"
                  label={t('fields.color')}
                  fullWidth
                  autoComplete="off"
                  name={field.name}
                  value={field.value}
                  onChange={(event) => field.onChange(event.target.value)}
                  onBlur={field.onBlur}
                  inputRef={field.ref}
                  error={Boolean(errors.color)}
                  helperText={message(errors.color?.message)}
                  slotProps={{
                    htmlInput: { 'aria-required': true, maxLength: 9 },
                    input: {
                      startAdornment: (
                        <InputAdornment position="start">
                          <Box
                            component="input"
                            type="color"
                            aria-label={t('fields.colorPicker')}
                            value={pickerValue(field.value)}
                            onChange={(event) => field.onChange(event.target.value)}
                            sx={{
                              width: 32,
                              height: 32,
                              p: 0,
                              border: 0,
                              bgcolor: 'transparent',
                              cursor: 'pointer',
                            }}
                          />
                        </InputAdornment>
                      ),
                    },
                  }}
                />
              )}
            />
            <TextField
              id="queue-orderQueue"
              label={t('fields.orderQueue')}
              inputMode="numeric"
              fullWidth
              autoComplete="off"
              error={Boolean(errors.orderQueue)}
              helperText={message(errors.orderQueue?.message) ?? t('fields.orderQueueHelp')}
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 5 } }}
              {...muiField(register('orderQueue'))}
            />
          </Box>
          {text('greetingMessage', 4)}
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { md: '1fr 1fr' } }}>
            {text('outOfHoursMessage')}
            {text('complationMessage')}
            {text('ratingMessage')}
          </Box>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr' } }}>
            {usesIntegrations ? (
              <Controller
                control={control}
                name="integrationId"
                render={({ field }) => (
                  <IdSelect
                    id="queue-integration"
                    label={t('fields.integration')}
                    noneLabel={t('fields.noIntegrationChosen')}
                    options={integrationOptions.data ?? []}
                    field={field}
                    error={Boolean(errors.integrationId)}
                    helperText={message(errors.integrationId?.message)}
                  />
                )}
              />
            ) : (
              <EmptySelect
                id="queue-integration"
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
                    id="queue-prompt"
                    label={t('fields.prompt')}
                    noneLabel={t('fields.noPromptChosen')}
                    options={promptOptions.data ?? []}
                    field={field}
                    error={Boolean(errors.promptId)}
                    helperText={message(errors.promptId?.message)}
                  />
                )}
              />
            ) : (
              <EmptySelect
                id="queue-prompt"
                label={t('fields.prompt')}
                text={t('fields.noPrompt')}
              />
            )}
          </Box>
        </>,
      )}
      {panel(
        'hours',
        <>
          <Alert severity="info">{t('dialog.hoursHelp')}</Alert>
          <WeekScheduleFields control={control} name="schedules" />
        </>,
      )}
      {panel(
        'options',
        queue ? (
          <QueueOptionsEditor queueId={queue.id} />
        ) : (
          <Alert severity="info">{t('options.saveFirst')}</Alert>
        ),
      )}
    </FormDialog>
  );
}
