import {
  hasRole,
  type Profile,
  type User,
  type UserCreate,
  type UserUpdate,
  userCreateSchema,
  userUpdateSchema,
} from '@atendi/shared';
import TextField from '@mui/material/TextField';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../app/api';
import { useAuth, useSessionUser } from '../../../app/auth';
import { FormDialog } from '../../../app/components/FormDialog';
import { SelectField } from '../../../app/components/FormFields';
import { IdSelect } from '../../../app/components/IdSelect';
import { errorMessage } from '../../../app/errors';
import { muiField, submitRecord, useRecordForm, useValidationText } from '../../../app/forms';
import { useConnections } from '../../connections/api';
import { QueueSelect } from '../../queues/components/QueueSelect';
import { useSaveUser } from '../api';

export interface UserFormValues {
  name: string;
  email: string;
  password: string;
  profile?: Profile;
  allTicket?: 'enabled' | 'desabled';
  whatsappId?: number | null;
  queueIds?: number[];
}

type UserPayload = UserCreate | UserUpdate;

const PROFILES = ['admin', 'user'] as const;
const ALL_TICKET = ['enabled', 'desabled'] as const;

const FORM_FIELDS = [
  'name',
  'email',
  'password',
  'profile',
  'allTicket',
  'whatsappId',
  'queueIds',
] as const;

interface UserDialogProps {
  open: boolean;
  onClose: () => void;
  /** The user being edited; none to add one. */
  user?: Pick<User, 'id' | 'name' | 'email'> & Partial<User>;
  /**
   * 'manage': the users page (admins also set profile, queues, connection, allTicket).
   * 'self': the account menu's profile (name, email, password only).
   */
  mode?: 'manage' | 'self';
}

function defaultsFor(user: UserDialogProps['user'], adminFields: boolean): UserFormValues {
  const base = { name: user?.name ?? '', email: user?.email ?? '', password: '' };
  if (!adminFields) return base;
  return {
    ...base,
    profile: user?.profile ?? 'user',
    allTicket: user?.allTicket ?? 'desabled',
    whatsappId: user?.whatsappId ?? null,
    queueIds: user?.queues?.map((queue) => queue.id) ?? [],
  };
}

export function UserDialog({ open, onClose, user, mode = 'manage' }: UserDialogProps) {
  const { t } = useTranslation('users');
  // the spec writes this form's messages as they are ('Too Short!', 'Required', 'Invalid email')
  const validationText = useValidationText({ asSpecWrites: true });
  const me = useSessionUser();
  const { updateUser } = useAuth();
  const editing = user !== undefined;
  // only admins set who sees what; nobody changes their own role from the profile dialog
  const adminFields = mode === 'manage' && hasRole(me, 'admin');
  const connections = useConnections({ enabled: open && adminFields });
  const save = useSaveUser();

  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useRecordForm<UserFormValues, UserPayload>(
    editing ? userUpdateSchema : userCreateSchema,
    defaultsFor(user, adminFields),
  );

  const onSubmit = handleSubmit(async (values) => {
    const data: UserPayload = { ...values };
    // an empty password on edit keeps the current one
    if (editing && !data.password) delete data.password;
    await submitRecord({
      save: async () => {
        if (editing) await save.mutateAsync({ id: user.id, data: data as UserUpdate });
        else await save.mutateAsync({ data: data as UserCreate });
        if (editing && user.id === me.id) {
          updateUser({ name: values.name ?? me.name, email: values.email ?? me.email });
        }
      },
      saved: t(mode === 'self' ? 'toasts.profileSaved' : 'toasts.saved'),
      onClose,
      setError,
      fields: FORM_FIELDS,
      handle: (error) => {
        if (!(error instanceof ApiError && error.code === 'ERR_DUPLICATED_EMAIL')) return false;
        setError('email', { type: 'server', message: errorMessage(error) });
        return true;
      },
    });
  });

  const title =
    mode === 'self'
      ? t('dialog.profileTitle')
      : editing
        ? t('dialog.editTitle')
        : t('dialog.addTitle');

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={title}
      onSubmit={onSubmit}
      submitLabel={editing ? t('common:actions.save') : t('common:actions.add')}
      pending={isSubmitting}
      contentSx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr' } }}
    >
      <TextField
        id="user-name"
        label={t('fields.name')}
        autoComplete="name"
        autoFocus
        fullWidth
        error={Boolean(errors.name)}
        helperText={validationText(errors.name?.message)}
        slotProps={{ htmlInput: { 'aria-required': true, maxLength: 50 } }}
        {...muiField(register('name'))}
      />
      <TextField
        id="user-email"
        label={t('fields.email')}
        type="email"
        autoComplete="email"
        fullWidth
        error={Boolean(errors.email)}
        helperText={validationText(errors.email?.message)}
        slotProps={{ htmlInput: { 'aria-required': true } }}
        {...muiField(register('email'))}
      />
      <TextField
        id="user-password"
        label={t('fields.password')}
        type="password"
        autoComplete="new-password"
        fullWidth
        error={Boolean(errors.password)}
        helperText={
          validationText(errors.password?.message) ??
          (editing ? t('fields.passwordKeep') : undefined)
        }
        slotProps={{ htmlInput: { 'aria-required': !editing, maxLength: 50 } }}
        {...muiField(register('password'))}
      />
      {adminFields && (
        <>
          <SelectField
            control={control}
            name="profile"
            id="user-profile"
            label={t('fields.profile')}
            fallback="user"
            options={PROFILES.map((value) => ({ value, label: t(`profiles.${value}`) }))}
            error={Boolean(errors.profile)}
            helperText={validationText(errors.profile?.message)}
          />
          <Controller
            control={control}
            name="queueIds"
            render={({ field }) => (
              <QueueSelect
                id="user-queues"
                sx={{ gridColumn: { sm: '1 / -1' } }}
                error={Boolean(errors.queueIds)}
                helperText={validationText(errors.queueIds?.message)}
                {...field}
              />
            )}
          />
          <Controller
            control={control}
            name="whatsappId"
            render={({ field }) => (
              <IdSelect
                id="user-connection"
                label={t('fields.connection')}
                noneLabel={t('fields.noConnection')}
                options={connections.data ?? []}
                field={field}
                error={Boolean(errors.whatsappId)}
                helperText={validationText(errors.whatsappId?.message)}
              />
            )}
          />
          <SelectField
            control={control}
            name="allTicket"
            id="user-all-ticket"
            label={t('fields.allTicket')}
            fallback="desabled"
            options={ALL_TICKET.map((value) => ({ value, label: t(`allTicket.${value}`) }))}
            error={Boolean(errors.allTicket)}
            helperText={validationText(errors.allTicket?.message)}
          />
        </>
      )}
    </FormDialog>
  );
}
