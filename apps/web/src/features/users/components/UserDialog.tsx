import {
  hasRole,
  type Profile,
  type User,
  type UserCreate,
  type UserUpdate,
  userCreateSchema,
  userUpdateSchema,
} from '@atendi/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useMemo } from 'react';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../app/api';
import { useAuth, useSessionUser } from '../../../app/auth';
import { FormDialog } from '../../../app/components/FormDialog';
import { IdSelect } from '../../../app/components/IdSelect';
import { errorMessage, toastError } from '../../../app/errors';
import { applyServerFieldErrors, muiField, useValidationText } from '../../../app/forms';
import { toast } from '../../../app/toast';
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
  const validationText = useValidationText();
  const me = useSessionUser();
  const { updateUser } = useAuth();
  const editing = user !== undefined;
  // only admins set who sees what; nobody changes their own role from the profile dialog
  const adminFields = mode === 'manage' && hasRole(me, 'admin');
  const connections = useConnections({ enabled: open && adminFields });
  const save = useSaveUser();

  const resolver = useMemo(
    () =>
      zodResolver(editing ? userUpdateSchema : userCreateSchema) as unknown as Resolver<
        UserFormValues,
        unknown,
        UserPayload
      >,
    [editing],
  );
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<UserFormValues, unknown, UserPayload>({
    resolver,
    defaultValues: defaultsFor(user, adminFields),
  });

  const onSubmit = handleSubmit(async (values) => {
    const data: UserPayload = { ...values };
    // an empty password on edit keeps the current one
    if (editing && !data.password) delete data.password;
    try {
      if (editing) await save.mutateAsync({ id: user.id, data: data as UserUpdate });
      else await save.mutateAsync({ data: data as UserCreate });
      toast.success(t(mode === 'self' ? 'toasts.profileSaved' : 'toasts.saved'));
      if (editing && user.id === me.id) {
        updateUser({ name: values.name ?? me.name, email: values.email ?? me.email });
      }
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ERR_DUPLICATED_EMAIL') {
        setError('email', { type: 'server', message: errorMessage(error) });
      } else if (!applyServerFieldErrors(error, setError, FORM_FIELDS)) {
        toastError(error);
      }
    }
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
          <Controller
            control={control}
            name="profile"
            render={({ field }) => (
              <TextField
                id="user-profile"
                select
                label={t('fields.profile')}
                fullWidth
                name={field.name}
                value={field.value ?? 'user'}
                onChange={(event) => field.onChange(event.target.value)}
                onBlur={field.onBlur}
                inputRef={field.ref}
                error={Boolean(errors.profile)}
                helperText={validationText(errors.profile?.message)}
              >
                <MenuItem value="admin">{t('profiles.admin')}</MenuItem>
                <MenuItem value="user">{t('profiles.user')}</MenuItem>
              </TextField>
            )}
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
          <Controller
            control={control}
            name="allTicket"
            render={({ field }) => (
              <TextField
                id="user-all-ticket"
                select
                label={t('fields.allTicket')}
                fullWidth
                name={field.name}
                value={field.value ?? 'desabled'}
                onChange={(event) => field.onChange(event.target.value)}
                onBlur={field.onBlur}
                inputRef={field.ref}
                error={Boolean(errors.allTicket)}
                helperText={validationText(errors.allTicket?.message)}
              >
                <MenuItem value="enabled">{t('allTicket.enabled')}</MenuItem>
                <MenuItem value="desabled">{t('allTicket.desabled')}</MenuItem>
              </TextField>
            )}
          />
        </>
      )}
    </FormDialog>
  );
}
