import { CHAT_TITLE_MAX, type Chat } from '@atendi/shared';
import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../../app/auth';
import { FormDialog } from '../../../app/components/FormDialog';
import { toastError } from '../../../app/errors';
import { useUsersList } from '../../tickets/api';
import { useSaveChat } from '../api';

interface Picked {
  id: number;
  name: string;
}

interface ChatDialogProps {
  open: boolean;
  onClose: () => void;
  /** The chat to edit (its owner only); a new one without it. */
  chat?: Chat;
  onSaved?: (chat: Chat) => void;
}

/**
 * The chat dialog (spec administration 2 and 5): a title and the users to talk with. The
 * signed-in user is always a member and is not offered.
 */
export function ChatDialog({ open, onClose, chat, onSaved }: ChatDialogProps) {
  const { t } = useTranslation('chats');
  const me = useSessionUser();
  const save = useSaveChat();
  const options = useUsersList({ enabled: open });
  const [title, setTitle] = useState(chat?.title ?? '');
  const [users, setUsers] = useState<Picked[]>(
    () =>
      chat?.users
        .filter((member) => member.userId !== me.id)
        .map((member) => ({ id: member.userId, name: member.user.name })) ?? [],
  );
  const [errors, setErrors] = useState<{ title?: string; users?: string }>({});

  const submit = async (_event: FormEvent<HTMLFormElement>) => {
    const found = {
      title: title.trim() ? undefined : t('validation.titleRequired'),
      users: users.length ? undefined : t('validation.usersRequired'),
    };
    setErrors(found);
    if (found.title || found.users) return;
    try {
      const saved = await save.mutateAsync({
        id: chat?.id,
        data: { title: title.trim(), users: users.map(({ id, name }) => ({ id, name })) },
      });
      onSaved?.(saved);
      onClose();
    } catch (error) {
      toastError(error);
    }
  };

  const choices = (options.data ?? [])
    .filter((user) => user.id !== me.id)
    .map((user) => ({ id: user.id, name: user.name }));

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={chat ? t('dialog.editTitle') : t('dialog.addTitle')}
      onSubmit={submit}
      submitLabel={chat ? t('common:actions.save') : t('common:actions.add')}
      pending={save.isPending}
    >
      <TextField
        id="chat-title"
        label={t('fields.title')}
        value={title}
        onChange={(event) => {
          setTitle(event.target.value);
          setErrors((current) => ({ ...current, title: undefined }));
        }}
        required
        fullWidth
        autoFocus
        slotProps={{ htmlInput: { maxLength: CHAT_TITLE_MAX } }}
        error={Boolean(errors.title)}
        helperText={errors.title}
      />
      <Autocomplete
        multiple
        id="chat-users"
        options={choices}
        loading={options.isLoading}
        value={users}
        onChange={(_event, value) => {
          setUsers(value);
          setErrors((current) => ({ ...current, users: undefined }));
        }}
        getOptionLabel={(option) => option.name}
        isOptionEqualToValue={(option, value) => option.id === value.id}
        filterSelectedOptions
        renderValue={(value, getItemProps) =>
          value.map((option, index) => {
            const { key, ...itemProps } = getItemProps({ index });
            return <Chip key={key} label={option.name} size="small" {...itemProps} />;
          })
        }
        renderInput={(params) => (
          <TextField
            {...params}
            label={t('fields.users')}
            required
            error={Boolean(errors.users)}
            helperText={errors.users}
          />
        )}
      />
    </FormDialog>
  );
}
