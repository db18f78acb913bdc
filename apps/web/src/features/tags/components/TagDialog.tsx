import { hasRole, SHORT_MESSAGE, type TagCreate, tagCreateSchema } from '@atendi/shared';
import CheckIcon from '@mui/icons-material/Check';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCallback } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../../app/auth';
import { FormDialog } from '../../../app/components/FormDialog';
import { SwitchField } from '../../../app/components/FormFields';
import { muiField, submitRecord, useRecordForm, useValidationText } from '../../../app/forms';
import { useSaveTag } from '../api';
import type { TagRow } from '../tags.cache';

export const TAG_COLOR_PRESETS = [
  '#1976d2',
  '#2e7d32',
  '#ed6c02',
  '#d32f2f',
  '#9c27b0',
  '#00838f',
  '#5d4037',
  '#546e7a',
] as const;

export interface TagFormValues {
  name: string;
  color: string;
  kanban: boolean;
}

const FORM_FIELDS = ['name', 'color', 'kanban'] as const;
const SERVER_MESSAGES: Record<string, string> = {
  [SHORT_MESSAGE]: 'validation.short',
  'Already exists': 'validation.exists',
  'Invalid color': 'validation.color',
};

/** Readable text on a chip of any colour (the theme's contrast rule, without the theme). */
export function textOn(color: string, fallback = '#fff'): string {
  const hex = color.replace('#', '');
  const full =
    hex.length === 3
      ? hex
          .split('')
          .map((char) => char + char)
          .join('')
      : hex.slice(0, 6);
  if (!/^[0-9a-f]{6}$/i.test(full)) return fallback;
  const [r, g, b] = [0, 2, 4].map((at) => Number.parseInt(full.slice(at, at + 2), 16) / 255);
  const linear = (value: number) =>
    value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  const luminance = 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!);
  // contrast against white vs against near-black
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? '#fff' : 'rgba(0,0,0,0.87)';
}

interface TagDialogProps {
  open: boolean;
  onClose: () => void;
  tag?: TagRow;
}

export function TagDialog({ open, onClose, tag }: TagDialogProps) {
  const { t } = useTranslation('tags');
  const validationText = useValidationText();
  const me = useSessionUser();
  const editing = tag !== undefined;
  const isAdmin = hasRole(me, 'admin');
  const save = useSaveTag();

  const {
    register,
    control,
    handleSubmit,
    setError,
    setValue,
    formState: { errors, isSubmitting },
  } = useRecordForm<TagFormValues, TagCreate>(tagCreateSchema, {
    name: tag?.name ?? '',
    color: tag?.color || TAG_COLOR_PRESETS[0],
    kanban: tag?.kanban === 1,
  });
  const [name, color] = useWatch({ control, name: ['name', 'color'] });

  const message = useCallback(
    (text: string | undefined) => {
      const key = text ? SERVER_MESSAGES[text] : undefined;
      return key ? t(key) : validationText(text);
    },
    [t, validationText],
  );

  const onSubmit = handleSubmit(async (values) => {
    // only admins decide which tags are kanban columns
    const data: TagCreate = isAdmin ? values : { name: values.name, color: values.color };
    await submitRecord({
      save: () => save.mutateAsync(editing ? { id: tag.id, data } : { data }),
      saved: t('toasts.saved'),
      onClose,
      setError,
      fields: FORM_FIELDS,
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
      maxWidth="xs"
    >
      <TextField
        id="tag-name"
        label={t('fields.name')}
        autoComplete="off"
        autoFocus
        fullWidth
        error={Boolean(errors.name)}
        helperText={message(errors.name?.message)}
        slotProps={{ htmlInput: { 'aria-required': true, maxLength: 50 } }}
        {...muiField(register('name'))}
      />
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
        <TextField
          id="tag-color"
          type="color"
          label={t('fields.color')}
          sx={{ width: 96 }}
          error={Boolean(errors.color)}
          helperText={message(errors.color?.message)}
          {...muiField(register('color'))}
        />
        <Chip
          label={name?.trim() || t('fields.preview')}
          sx={{ bgcolor: color, color: textOn(color ?? ''), maxWidth: '100%' }}
        />
      </Box>
      <Box role="group" aria-label={t('fields.presets')}>
        <Typography variant="caption" color="text.secondary" component="div" sx={{ mb: 0.5 }}>
          {t('fields.presets')}
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {TAG_COLOR_PRESETS.map((preset) => {
            const selected = color?.toLowerCase() === preset;
            return (
              <Box
                key={preset}
                component="button"
                type="button"
                aria-label={t('fields.preset', { color: preset })}
                aria-pressed={selected}
                onClick={() => setValue('color', preset, { shouldDirty: true })}
                sx={{
                  width: 32,
                  height: 32,
                  borderRadius: '50%',
                  border: 2,
                  borderColor: selected ? 'text.primary' : 'transparent',
                  bgcolor: preset,
                  color: textOn(preset),
                  cursor: 'pointer',
                  display: 'grid',
                  placeItems: 'center',
                  p: 0,
                  '&:focus-visible': {
                    outline: 2,
                    outlineColor: 'primary.main',
                    outlineOffset: 2,
                  },
                }}
              >
                {selected && <CheckIcon fontSize="small" aria-hidden />}
              </Box>
            );
          })}
        </Box>
      </Box>
      {isAdmin && <SwitchField control={control} name="kanban" label={t('fields.kanban')} />}
    </FormDialog>
  );
}
