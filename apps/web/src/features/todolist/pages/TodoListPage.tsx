import DeleteIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from '../../../app/a11y';
import { useClock } from '../../../app/clock';
import { PageHeader } from '../../../app/components/PageHeader';
import { loadTasks, saveTasks, type Task } from '../storage';

/** A to-do list kept in this browser only: add, edit and delete tasks. */
export function TodoListPage() {
  const { t } = useTranslation('todolist');
  const clock = useClock();
  const [tasks, setTasks] = useState<Task[]>(loadTasks);
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const input = useRef<HTMLInputElement>(null);

  const update = (next: Task[], message: string) => {
    setTasks(next);
    saveTasks(next);
    setAnnouncement(message);
  };

  const reset = () => {
    setText('');
    setEditing(null);
    input.current?.focus();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (!value) return;
    const now = new Date().toISOString();
    if (editing === null) {
      update([...tasks, { text: value, createdAt: now, updatedAt: now }], t('announce.added'));
    } else {
      update(
        tasks.map((task, index) =>
          index === editing ? { ...task, text: value, updatedAt: now } : task,
        ),
        t('announce.saved'),
      );
    }
    reset();
  };

  const edit = (index: number) => {
    setEditing(index);
    setText(tasks[index]!.text);
    input.current?.focus();
  };

  const remove = (index: number) => {
    update(
      tasks.filter((_task, position) => position !== index),
      t('announce.deleted', { text: tasks[index]!.text }),
    );
    if (editing === index) setEditing(null);
    else if (editing !== null && editing > index) setEditing(editing - 1);
    input.current?.focus();
  };

  return (
    <>
      <PageHeader title={t('title')} />
      <Paper variant="outlined" sx={{ p: 2, maxWidth: 720 }}>
        <Box
          component="form"
          onSubmit={submit}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && editing !== null) reset();
          }}
          sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start' }}
        >
          <TextField
            inputRef={input}
            id="todolist-text"
            label={t('newTask')}
            value={text}
            onChange={(event) => setText(event.target.value)}
            size="small"
            autoComplete="off"
            sx={{ flex: '1 1 220px' }}
            slotProps={{ htmlInput: { maxLength: 1000 } }}
          />
          <Button type="submit" variant="contained">
            {editing === null ? t('add') : t('save')}
          </Button>
          {editing !== null && (
            <Button type="button" onClick={reset}>
              {t('cancel')}
            </Button>
          )}
        </Box>
        <Typography component="h2" sx={visuallyHidden}>
          {t('listTitle')}
        </Typography>
        {tasks.length === 0 ? (
          <Typography color="text.secondary" sx={{ mt: 2 }}>
            {t('empty')}
          </Typography>
        ) : (
          <List aria-label={t('listTitle')} sx={{ mt: 1 }}>
            {tasks.map((task, index) => (
              <ListItem
                // biome-ignore lint/suspicious/noArrayIndexKey: tasks have no id (the original product's shape) and rows keep no state
                key={index}
                divider
                secondaryAction={
                  <>
                    <IconButton
                      aria-label={t('edit', { text: task.text })}
                      onClick={() => edit(index)}
                    >
                      <EditIcon />
                    </IconButton>
                    <IconButton
                      edge="end"
                      aria-label={t('delete', { text: task.text })}
                      onClick={() => remove(index)}
                    >
                      <DeleteIcon />
                    </IconButton>
                  </>
                }
                sx={{ pr: 12, bgcolor: editing === index ? 'action.selected' : undefined }}
              >
                <ListItemText
                  primary={task.text}
                  secondary={
                    task.updatedAt !== task.createdAt
                      ? t('updatedAt', { date: clock.shortDateTime(task.updatedAt) })
                      : clock.shortDateTime(task.createdAt)
                  }
                  slotProps={{ primary: { sx: { wordBreak: 'break-word' } } }}
                />
              </ListItem>
            ))}
          </List>
        )}
        <Box role="status" aria-live="polite" sx={visuallyHidden}>
          {announcement}
        </Box>
      </Paper>
    </>
  );
}
