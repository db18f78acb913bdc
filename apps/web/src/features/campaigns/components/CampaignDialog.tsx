import {
  boundedString,
  CAMPAIGN_MEDIA_TYPES,
  CAMPAIGN_MESSAGE_SLOTS,
  type Campaign,
  type CampaignUpdate,
  MEDIA_MAX_BYTES,
  MSG,
} from '@atendi/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { closedOnMediaFailure } from '../../../app/attachments';
import { useClock } from '../../../app/clock';
import { AttachmentField, useAttachment } from '../../../app/components/AttachmentField';
import { FormDialog } from '../../../app/components/FormDialog';
import { IdSelect } from '../../../app/components/IdSelect';
import { toastError } from '../../../app/errors';
import { applyServerFieldErrors } from '../../../app/forms';
import { toast } from '../../../app/toast';
import { useCampaignLookups, useSaveCampaign } from '../api';

const HOUR_MS = 3_600_000;

/** INATIVA, or PROGRAMADA more than an hour ahead (the server holds the same rule). */
export function isEditable(campaign: Pick<Campaign, 'status' | 'scheduledAt'>, now = Date.now()) {
  if (campaign.status === 'INATIVA') return true;
  return (
    campaign.status === 'PROGRAMADA' &&
    campaign.scheduledAt !== null &&
    new Date(campaign.scheduledAt).getTime() > now + HOUR_MS
  );
}

const messageKeys = CAMPAIGN_MESSAGE_SLOTS.map((n) => `message${n}` as const);
const confirmationKeys = CAMPAIGN_MESSAGE_SLOTS.map((n) => `confirmationMessage${n}` as const);

const formSchema = z.object({
  name: boundedString(2, 50),
  confirmation: z.boolean(),
  contactListId: z.number().nullable(),
  tagListId: z.number().nullable(),
  whatsappId: z.number().nullable(),
  fileListId: z.number().nullable(),
  scheduledAt: z.string(),
  ...Object.fromEntries([...messageKeys, ...confirmationKeys].map((key) => [key, z.string()])),
});
type FormValues = z.infer<typeof formSchema> & Record<string, string | number | boolean | null>;

const FORM_FIELDS = ['name', 'scheduledAt', 'whatsappId', 'contactListId', 'tagListId'] as const;

interface CampaignDialogProps {
  open: boolean;
  onClose: () => void;
  campaign?: Campaign;
}

/**
 * The campaign modal (spec administration 2): name, confirmation, recipients, connection, date,
 * file list, five messages (and five confirmation messages) and one media file. Read-only when
 * the campaign cannot be edited, except a cancelled one's messages.
 */
export function CampaignDialog({ open, onClose, campaign }: CampaignDialogProps) {
  const { t } = useTranslation('campaigns');
  const clock = useClock();
  const save = useSaveCampaign();
  const lookups = useCampaignLookups(open);
  const attachment = useAttachment(campaign?.mediaName);
  const [tab, setTab] = useState(0);
  const cancelled = campaign?.status === 'CANCELADA';
  const locked = campaign ? !isEditable(campaign) : false;
  const messagesLocked = locked && !cancelled;

  const defaults = {
    name: campaign?.name ?? '',
    confirmation: campaign?.confirmation ?? false,
    contactListId: campaign?.contactListId ?? null,
    tagListId: campaign?.tagListId ?? null,
    whatsappId: campaign?.whatsappId ?? null,
    fileListId: campaign?.fileListId ?? null,
    // the company's wall clock, which is also how the server reads the text sent back
    scheduledAt: campaign?.scheduledAt ? clock.toInput(campaign.scheduledAt) : '',
    ...Object.fromEntries(
      [...messageKeys, ...confirmationKeys].map((key) => [key, campaign?.[key] ?? '']),
    ),
  } as FormValues;
  const { control, handleSubmit, setError, watch, formState } = useForm<FormValues>({
    resolver: zodResolver(formSchema) as never,
    defaultValues: defaults,
  });
  const confirmation = watch('confirmation');

  const messageText = (message: string | undefined) => {
    if (message === MSG.tooShort) return t('validation.tooShort');
    if (message === MSG.tooLong) return t('validation.tooLong');
    if (message === MSG.required) return t('validation.required');
    if (message === 'Invalid date') return t('validation.invalidDate');
    return message;
  };

  const onSubmit = handleSubmit(async (values) => {
    const messages = Object.fromEntries(
      [...messageKeys, ...confirmationKeys].map((key) => [key, String(values[key] ?? '')]),
    );
    const data = (
      cancelled
        ? messages
        : {
            ...messages,
            name: values.name,
            confirmation: values.confirmation,
            contactListId: values.contactListId,
            tagListId: values.tagListId,
            whatsappId: values.whatsappId,
            fileListId: values.fileListId,
            // The spec's form: 'YYYY-MM-DD HH:mm:ss' on the company's clock, none as null.
            scheduledAt: values.scheduledAt ? `${values.scheduledAt.replace('T', ' ')}:00` : null,
          }
    ) as CampaignUpdate;
    try {
      await save.mutateAsync({
        id: campaign?.id,
        data,
        media: cancelled ? undefined : attachment.toSave,
      });
      toast.success(t('toasts.saved'));
      onClose();
    } catch (error) {
      if (closedOnMediaFailure(error, (reason) => t('toasts.mediaFailed', { reason }), onClose)) {
        return;
      }
      if (!applyServerFieldErrors(error, setError, FORM_FIELDS)) toastError(error);
    }
  });

  const title = !campaign
    ? t('dialog.addTitle')
    : messagesLocked
      ? t('dialog.readOnlyTitle')
      : t('dialog.editTitle');
  const variables = '{{contactFirstName}} {{contactName}} {{greeting}} {{date}} {{hour}}';

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={title}
      onSubmit={messagesLocked ? () => undefined : onSubmit}
      submitLabel={
        messagesLocked ? undefined : campaign ? t('common:actions.save') : t('common:actions.add')
      }
      pending={formState.isSubmitting}
      maxWidth="md"
    >
      {locked && <Alert severity="info">{t('dialog.readOnly')}</Alert>}
      <Box
        component="fieldset"
        disabled={locked}
        sx={{
          border: 0,
          p: 0,
          m: 0,
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { sm: '1fr 1fr' },
        }}
      >
        <Controller
          control={control}
          name="name"
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              value={String(field.value ?? '')}
              inputRef={field.ref}
              id="campaign-name"
              label={t('fields.name')}
              autoFocus={!locked}
              required
              fullWidth
              disabled={locked}
              error={Boolean(fieldState.error)}
              helperText={messageText(fieldState.error?.message)}
              slotProps={{ htmlInput: { maxLength: 50 } }}
            />
          )}
        />
        <Controller
          control={control}
          name="confirmation"
          render={({ field }) => (
            <TextField
              id="campaign-confirmation"
              select
              label={t('fields.confirmation')}
              fullWidth
              disabled={locked}
              value={field.value ? 'true' : 'false'}
              onChange={(event) => field.onChange(event.target.value === 'true')}
            >
              <MenuItem value="false">{t('confirmation.disabled')}</MenuItem>
              <MenuItem value="true">{t('confirmation.enabled')}</MenuItem>
            </TextField>
          )}
        />
        <Controller
          control={control}
          name="contactListId"
          render={({ field }) => (
            <IdSelect
              id="campaign-contact-list"
              label={t('fields.contactList')}
              noneLabel={t('fields.none')}
              options={lookups.lists}
              field={field as never}
            />
          )}
        />
        <Controller
          control={control}
          name="tagListId"
          render={({ field }) => (
            <IdSelect
              id="campaign-tag-list"
              label={t('fields.tagList')}
              noneLabel={t('fields.noTag')}
              options={lookups.tags}
              field={field as never}
            />
          )}
        />
        <Controller
          control={control}
          name="whatsappId"
          render={({ field, fieldState }) => (
            <IdSelect
              id="campaign-whatsapp"
              label={t('fields.whatsapp')}
              noneLabel={t('fields.none')}
              options={lookups.connections}
              field={field as never}
              error={Boolean(fieldState.error)}
              helperText={fieldState.error?.message}
            />
          )}
        />
        <Controller
          control={control}
          name="scheduledAt"
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              value={String(field.value ?? '')}
              inputRef={field.ref}
              id="campaign-scheduled-at"
              type="datetime-local"
              label={t('fields.scheduledAt')}
              fullWidth
              disabled={locked}
              error={Boolean(fieldState.error)}
              helperText={messageText(fieldState.error?.message)}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          )}
        />
        <Controller
          control={control}
          name="fileListId"
          render={({ field }) => (
            <IdSelect
              id="campaign-file-list"
              label={t('fields.fileList')}
              noneLabel={t('fields.fileListNone')}
              options={[]}
              field={field as never}
            />
          )}
        />
      </Box>
      <Tabs
        value={tab}
        onChange={(_event, value: number) => setTab(value)}
        variant="scrollable"
        aria-label={t('fields.message')}
      >
        {CAMPAIGN_MESSAGE_SLOTS.map((n) => (
          <Tab key={n} label={t('fields.tab', { n })} id={`campaign-tab-${n}`} />
        ))}
      </Tabs>
      {CAMPAIGN_MESSAGE_SLOTS.map((n, index) => (
        <Box
          key={n}
          role="tabpanel"
          hidden={tab !== index}
          aria-labelledby={`campaign-tab-${n}`}
          sx={{ display: tab === index ? 'grid' : 'none', gap: 2 }}
        >
          <Controller
            control={control}
            name={`message${n}`}
            render={({ field }) => (
              <TextField
                {...field}
                value={String(field.value ?? '')}
                inputRef={field.ref}
                id={`campaign-message${n}`}
                label={`${t('fields.message')} ${n}`}
                multiline
                minRows={4}
                fullWidth
                disabled={messagesLocked}
                helperText={t('fields.messageHelp', { variables })}
              />
            )}
          />
          {confirmation && (
            <Controller
              control={control}
              name={`confirmationMessage${n}`}
              render={({ field }) => (
                <TextField
                  {...field}
                  value={String(field.value ?? '')}
                  inputRef={field.ref}
                  id={`campaign-confirmation-message${n}`}
                  label={`${t('fields.confirmationMessage')} ${n}`}
                  multiline
                  minRows={3}
                  fullWidth
                  disabled={messagesLocked}
                />
              )}
            />
          )}
        </Box>
      ))}
      {(!locked || attachment.fileName) && (
        <AttachmentField
          label={t('fields.attachment')}
          fileName={attachment.fileName}
          accept={CAMPAIGN_MEDIA_TYPES}
          maxBytes={MEDIA_MAX_BYTES}
          disabled={locked}
          texts={{
            attach: t('fields.attach'),
            choose: t('fields.chooseFile'),
            remove: (name) => t('fields.removeFile', { name }),
            tooLarge: t('fields.fileTooLarge', { size: MEDIA_MAX_BYTES / 1024 / 1024 }),
            wrongType: t('fields.wrongType'),
          }}
          onChoose={attachment.choose}
          onRemove={attachment.remove}
        />
      )}
    </FormDialog>
  );
}
