import {
  PROMPT_MSG,
  PROMPT_VOICES,
  type Prompt,
  type PromptCreate,
  promptCreateSchema,
} from '@atendi/shared';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useCallback } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../app/components/FormDialog';
import { muiField, submitRecord, useRecordForm, useValidationText } from '../../../app/forms';
import { useQueues } from '../../queues/api';
import { useSavePrompt } from '../api';

export interface PromptFormValues {
  name: string;
  prompt: string;
  queueId: number | null;
  maxTokens: string;
  temperature: string;
  maxMessages: string;
  apiKey: string;
  voice: string;
  voiceKey: string;
  voiceRegion: string;
}

const FORM_FIELDS = [
  'name',
  'prompt',
  'queueId',
  'maxTokens',
  'temperature',
  'maxMessages',
  'apiKey',
  'voice',
  'voiceKey',
  'voiceRegion',
] as const;

interface PromptDialogProps {
  open: boolean;
  onClose: () => void;
  prompt?: Prompt;
}

export function PromptDialog({ open, onClose, prompt }: PromptDialogProps) {
  const { t } = useTranslation('prompts');
  const validationText = useValidationText();
  const save = useSavePrompt();
  const queues = useQueues();
  const editing = prompt !== undefined;

  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useRecordForm<PromptFormValues, PromptCreate>(promptCreateSchema, {
    name: prompt?.name ?? '',
    prompt: prompt?.prompt ?? '',
    queueId: prompt?.queueId ?? null,
    maxTokens: String(prompt?.maxTokens ?? 100),
    temperature: String(prompt?.temperature ?? 1),
    maxMessages: String(prompt?.maxMessages ?? 10),
    // a stored key shows as its hint; sent back unchanged, it keeps the key
    apiKey: prompt?.apiKey ?? '',
    voice: prompt?.voice ?? 'texto',
    voiceKey: prompt?.voiceKey ?? '',
    voiceRegion: prompt?.voiceRegion ?? '',
  });

  const message = useCallback(
    (text: string | undefined) =>
      text === PROMPT_MSG.queueRequired
        ? t('validation.queue')
        : text === PROMPT_MSG.keyMissing
          ? t('validation.keyMissing')
          : validationText(text),
    [t, validationText],
  );

  const onSubmit = handleSubmit(async (data) => {
    await submitRecord({
      save: () => save.mutateAsync(editing ? { id: prompt.id, data } : { data }),
      saved: t('toasts.saved'),
      onClose,
      setError,
      fields: FORM_FIELDS,
    });
  });

  const field = (name: (typeof FORM_FIELDS)[number], extra: Record<string, unknown> = {}) => (
    <TextField
      id={`prompt-${name}`}
      label={t(`fields.${name}`)}
      fullWidth
      autoComplete="off"
      error={Boolean(errors[name])}
      helperText={message(errors[name]?.message)}
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
      {field('name', { autoFocus: true, slotProps: { htmlInput: { maxLength: 100 } } })}
      {field('apiKey', { helperText: message(errors.apiKey?.message) ?? t('fields.apiKeyHelp') })}
      {field('prompt', { multiline: true, minRows: 5 })}
      <Controller
        control={control}
        name="queueId"
        render={({ field: queueField }) => (
          <TextField
            id="prompt-queueId"
            select
            label={t('fields.queue')}
            fullWidth
            name={queueField.name}
            value={queueField.value ?? ''}
            onChange={(event) => {
              const value = event.target.value as number | string;
              queueField.onChange(value === '' ? null : Number(value));
            }}
            onBlur={queueField.onBlur}
            inputRef={queueField.ref}
            error={Boolean(errors.queueId)}
            helperText={message(errors.queueId?.message)}
            slotProps={{ htmlInput: { 'aria-required': true } }}
          >
            {(queues.data ?? []).map((queue) => (
              <MenuItem key={queue.id} value={queue.id}>
                {queue.name}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr 1fr' } }}>
        <Controller
          control={control}
          name="voice"
          render={({ field: voiceField }) => (
            <TextField id="prompt-voice" select label={t('fields.voice')} fullWidth {...voiceField}>
              {PROMPT_VOICES.map((voice) => (
                <MenuItem key={voice} value={voice}>
                  {voice === 'texto' ? t('voices.text') : voice.replace(/^pt-BR-|Neural$/g, '')}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        {field('voiceKey')}
        {field('voiceRegion')}
      </Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr 1fr' } }}>
        {field('temperature', { slotProps: { htmlInput: { inputMode: 'decimal' } } })}
        {field('maxTokens', { slotProps: { htmlInput: { inputMode: 'numeric' } } })}
        {field('maxMessages', { slotProps: { htmlInput: { inputMode: 'numeric' } } })}
      </Box>
    </FormDialog>
  );
}
