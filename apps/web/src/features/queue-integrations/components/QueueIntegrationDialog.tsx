import {
  INTEGRATION_LANGUAGES,
  INTEGRATION_TYPES,
  type QueueIntegration,
  type QueueIntegrationCreate,
  queueIntegrationCreateSchema,
  type TestSessionResult,
} from '@atendi/shared';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../app/components/FormDialog';
import { errorMessage } from '../../../app/errors';
import { muiField, submitRecord, useRecordForm, useValidationText } from '../../../app/forms';
import { useSaveQueueIntegration, useTestSession } from '../api';

export interface IntegrationFormValues {
  type: string;
  name: string;
  projectName: string;
  jsonContent: string;
  language: string;
  urlN8N: string;
  secret: string;
  typebotSlug: string;
  typebotExpires: string;
  typebotDelayMessage: string;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotUnknownMessage: string;
  typebotRestartMessage: string;
}

const FORM_FIELDS = [
  'type',
  'name',
  'projectName',
  'jsonContent',
  'language',
  'urlN8N',
  'secret',
  'typebotSlug',
  'typebotExpires',
  'typebotDelayMessage',
  'typebotKeywordFinish',
  'typebotKeywordRestart',
  'typebotUnknownMessage',
  'typebotRestartMessage',
] as const;
type Field = (typeof FORM_FIELDS)[number];

/** The fields each type shows, besides its type and name. */
const FIELDS_BY_TYPE: Record<string, Field[]> = {
  dialogflow: ['projectName', 'language', 'jsonContent'],
  webhook: ['urlN8N', 'secret'],
  n8n: ['urlN8N', 'secret'],
  typebot: [
    'urlN8N',
    'typebotSlug',
    'typebotExpires',
    'typebotDelayMessage',
    'typebotKeywordFinish',
    'typebotKeywordRestart',
    'typebotUnknownMessage',
    'typebotRestartMessage',
  ],
};

interface Props {
  open: boolean;
  onClose: () => void;
  integration?: QueueIntegration;
}

export function QueueIntegrationDialog({ open, onClose, integration }: Props) {
  const { t } = useTranslation('queueIntegrations');
  const validationText = useValidationText();
  const save = useSaveQueueIntegration();
  const test = useTestSession();
  const [result, setResult] = useState<TestSessionResult | null>(null);
  const editing = integration !== undefined;

  const {
    register,
    control,
    handleSubmit,
    setError,
    watch,
    getValues,
    formState: { errors, isSubmitting },
  } = useRecordForm<IntegrationFormValues, QueueIntegrationCreate>(queueIntegrationCreateSchema, {
    type: integration?.type ?? 'typebot',
    name: integration?.name ?? '',
    projectName: integration?.projectName ?? '',
    // stored secrets show as their hints; sent back unchanged, they are kept
    jsonContent: integration?.jsonContent ?? '',
    language: integration?.language ?? 'pt-BR',
    urlN8N: integration?.urlN8N ?? '',
    secret: integration?.secret ?? '',
    typebotSlug: integration?.typebotSlug ?? '',
    typebotExpires: String(integration?.typebotExpires ?? 1),
    typebotDelayMessage: String(integration?.typebotDelayMessage ?? 1000),
    typebotKeywordFinish: integration?.typebotKeywordFinish ?? '',
    typebotKeywordRestart: integration?.typebotKeywordRestart ?? '',
    typebotUnknownMessage: integration?.typebotUnknownMessage ?? '',
    typebotRestartMessage: integration?.typebotRestartMessage ?? '',
  });
  const type = watch('type');
  const shown = FIELDS_BY_TYPE[type] ?? [];

  const onSubmit = handleSubmit(async (data) => {
    await submitRecord({
      save: () => save.mutateAsync(editing ? { id: integration.id, data } : { data }),
      saved: t('toasts.saved'),
      onClose,
      setError,
      fields: FORM_FIELDS,
    });
  });

  const runTest = async () => {
    setResult(null);
    const values = getValues();
    const body = Object.fromEntries(
      Object.entries(values).filter(([, value]) => value !== ''),
    ) as Record<string, unknown>;
    try {
      setResult(
        await test.mutateAsync({
          ...body,
          ...(editing ? { id: integration.id } : {}),
          type: values.type as QueueIntegrationCreate['type'],
        }),
      );
    } catch (error) {
      // the request itself failed (a refused field, the network): said as the app says errors
      setResult({ ok: false, messages: [errorMessage(error)] });
    }
  };

  const field = (name: Field, extra: Record<string, unknown> = {}) => (
    <TextField
      key={name}
      id={`integration-${name}`}
      label={t(`fields.${name}`)}
      fullWidth
      autoComplete="off"
      error={Boolean(errors[name])}
      helperText={validationText(errors[name]?.message)}
      {...extra}
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
    >
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 2fr' } }}>
        <Controller
          control={control}
          name="type"
          render={({ field: typeField }) => (
            <TextField
              id="integration-type"
              select
              label={t('fields.type')}
              fullWidth
              {...typeField}
            >
              {INTEGRATION_TYPES.map((value) => (
                <MenuItem key={value} value={value}>
                  {t(`types.${value}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        {field('name', { autoFocus: true, slotProps: { htmlInput: { maxLength: 50 } } })}
      </Box>
      {shown.includes('projectName') && field('projectName')}
      {shown.includes('language') && (
        <Controller
          control={control}
          name="language"
          render={({ field: languageField }) => (
            <TextField
              id="integration-language"
              select
              label={t('fields.language')}
              fullWidth
              {...languageField}
            >
              {INTEGRATION_LANGUAGES.map((value) => (
                <MenuItem key={value} value={value}>
                  {t(`languages.${value}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      )}
      {shown.includes('jsonContent') &&
        field('jsonContent', {
          multiline: true,
          minRows: 4,
          helperText: t('fields.jsonContentHelp'),
        })}
      {shown.includes('urlN8N') && field('urlN8N', { label: t(`fields.url.${type}`) })}
      {shown.includes('secret') &&
        field('secret', {
          helperText: validationText(errors.secret?.message) ?? t('fields.secretHelp'),
        })}
      {type === 'typebot' && (
        <>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr 1fr' } }}>
            {field('typebotSlug')}
            {field('typebotExpires', { slotProps: { htmlInput: { inputMode: 'numeric' } } })}
            {field('typebotDelayMessage', { slotProps: { htmlInput: { inputMode: 'numeric' } } })}
          </Box>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr' } }}>
            {field('typebotKeywordFinish')}
            {field('typebotKeywordRestart')}
            {field('typebotUnknownMessage')}
            {field('typebotRestartMessage')}
          </Box>
        </>
      )}
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        <Button
          variant="outlined"
          onClick={runTest}
          disabled={test.isPending}
          sx={{ alignSelf: 'flex-start' }}
        >
          {t('test.button')}
        </Button>
        {result && (
          <Alert severity={result.ok ? 'success' : 'error'} role="status">
            <strong>{result.ok ? t('test.ok') : t('test.failed')}</strong>
            {result.error && (
              <div>{t(`test.errors.${result.error}`, { status: result.status })}</div>
            )}
            {result.messages.map((text, index) => (
              // the answers are shown in the order they came
              // biome-ignore lint/suspicious/noArrayIndexKey: answers may repeat
              <div key={index} style={{ whiteSpace: 'pre-wrap' }}>
                {text}
              </div>
            ))}
          </Alert>
        )}
      </Box>
    </FormDialog>
  );
}
