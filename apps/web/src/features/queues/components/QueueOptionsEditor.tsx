import {
  OPTION_DIGITS_MESSAGE,
  type QueueOption,
  type QueueOptionFields,
  queueOptionCreateSchema,
} from '@atendi/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import AddIcon from '@mui/icons-material/Add';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import SubdirectoryArrowRightIcon from '@mui/icons-material/SubdirectoryArrowRight';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  createContext,
  type KeyboardEvent,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ConfirmationDialog, useConfirmation } from '../../../app/components/ConfirmDialog';
import { toastError } from '../../../app/errors';
import { applyServerFieldErrors, muiField, useValidationText } from '../../../app/forms';
import { DeleteRowAction, EditRowAction, RowAction } from '../../../app/list/RowActions';
import { toast } from '../../../app/toast';
import { useDeleteQueueOption, useQueueOptions, useSaveQueueOption } from '../api';

/** The one option form open in the tree: a new option under a parent, or an option's edit. */
type Editing = { mode: 'add'; parentId: number | null } | { mode: 'edit'; optionId: number };

/** Where the keyboard goes once a form closes: an option's row, or the first level's add. */
type FocusTarget = number | 'addRoot';

interface EditorState {
  queueId: number;
  editing: Editing | null;
  setEditing: (editing: Editing | null) => void;
  /** Closes the open form and moves the focus to `target` once it is on screen. */
  closeForm: (target: FocusTarget) => void;
  focusTarget: FocusTarget | null;
  focused: () => void;
  askDelete: (option: QueueOptionFields) => void;
}

const EditorContext = createContext<EditorState | null>(null);
const useEditor = () => useContext(EditorContext)!;

/** What the contact types next: one more than the highest number of the level. */
function nextNumber(siblings: readonly QueueOptionFields[]): string {
  const numbers = siblings.map((option) => Number(option.option)).filter(Number.isFinite);
  return String(numbers.length ? Math.max(...numbers) + 1 : 1);
}

/**
 * A queue's bot menu as nested lists: each option with its number, title and message, and
 * buttons to add an option under it, edit it or delete it (with its subtree). Every add and edit
 * is saved at once through the queue-options routes.
 */
export function QueueOptionsEditor({ queueId }: { queueId: number }) {
  const { t } = useTranslation('queues');
  const [editing, setEditing] = useState<Editing | null>(null);
  const [focusTarget, setFocusTarget] = useState<FocusTarget | null>(null);
  const addRoot = useRef<HTMLButtonElement>(null);
  const remove = useDeleteQueueOption(queueId);
  const deletion = useConfirmation<QueueOptionFields>(
    (option) => remove.mutateAsync(option.id),
    t('options.deleted'),
  );
  const state = useMemo<EditorState>(
    () => ({
      queueId,
      editing,
      setEditing,
      closeForm: (target) => {
        setEditing(null);
        setFocusTarget(target);
      },
      focusTarget,
      focused: () => setFocusTarget(null),
      askDelete: deletion.ask,
    }),
    [queueId, editing, focusTarget, deletion.ask],
  );
  useEffect(() => {
    if (focusTarget !== 'addRoot' || !addRoot.current) return;
    addRoot.current.focus();
    setFocusTarget(null);
  }, [focusTarget]);

  return (
    <EditorContext.Provider value={state}>
      <Box sx={{ display: 'grid', gap: 1.5 }}>
        <Typography variant="body2" color="text.secondary">
          {t('options.help')}
        </Typography>
        <OptionLevel parent={null} />
        {!(editing?.mode === 'add' && editing.parentId === null) && (
          <Box>
            <Button
              ref={addRoot}
              startIcon={<AddIcon />}
              variant="outlined"
              onClick={() => setEditing({ mode: 'add', parentId: null })}
            >
              {t('options.add')}
            </Button>
          </Box>
        )}
      </Box>
      <ConfirmationDialog
        confirmation={deletion}
        title={(option) => t('options.confirmTitle', { title: option.title })}
        message={t('options.confirmMessage')}
        confirmLabel={t('common:actions.delete')}
      />
    </EditorContext.Provider>
  );
}

/** One level of the menu: the first one, or the options under `parent`. */
function OptionLevel({ parent }: { parent: QueueOptionFields | null }) {
  const { t } = useTranslation('queues');
  const { queueId, editing } = useEditor();
  const level = useQueueOptions(queueId, parent?.id ?? null);
  const options = level.data ?? [];
  const adding = editing?.mode === 'add' && editing.parentId === (parent?.id ?? null);
  const label = parent ? t('options.childrenOf', { title: parent.title }) : t('options.title');

  if (level.isPending) {
    return <CircularProgress size={20} aria-label={t('common:loading')} sx={{ ml: 1 }} />;
  }
  if (level.isError) return <Alert severity="error">{t('options.loadFailed')}</Alert>;
  return (
    <>
      {!parent && options.length === 0 && !adding && (
        <Typography color="text.secondary" sx={{ py: 1 }}>
          {t('options.empty')}
        </Typography>
      )}
      {(options.length > 0 || adding) && (
        <Box
          component="ul"
          aria-label={label}
          sx={{
            listStyle: 'none',
            m: 0,
            p: 0,
            display: 'grid',
            gap: 1,
            // each level under an option is set in, with a line that shows where it belongs
            ...(parent && { pl: { xs: 1.5, sm: 3 }, borderLeft: 2, borderColor: 'divider' }),
          }}
        >
          {options.map((option) => (
            <OptionNode key={option.id} option={option} />
          ))}
          {adding && (
            <Box component="li">
              <OptionForm parent={parent} siblings={options} />
            </Box>
          )}
        </Box>
      )}
    </>
  );
}

function OptionNode({ option }: { option: QueueOption }) {
  const { t } = useTranslation('queues');
  const { editing, setEditing, askDelete, focusTarget, focused } = useEditor();
  const [expanded, setExpanded] = useState(true);
  const item = useRef<HTMLLIElement>(null);
  // a form just closed on this option (or saved it here): the keyboard goes on from its row
  useEffect(() => {
    if (focusTarget !== option.id || !item.current) return;
    item.current.focus();
    focused();
  }, [focusTarget, option.id, focused]);
  const addingHere = editing?.mode === 'add' && editing.parentId === option.id;
  const editingHere = editing?.mode === 'edit' && editing.optionId === option.id;
  const hasChildren = option.children.length > 0;
  const titleId = useId();
  const numberId = useId();

  return (
    // named by its number and title ('1 Vendas'), as the contact sees it in the menu
    <Box
      component="li"
      ref={item}
      tabIndex={-1}
      aria-labelledby={`${numberId} ${titleId}`}
      sx={{ '&:focus-visible': { outline: 2, outlineColor: 'primary.main', borderRadius: 1 } }}
    >
      {editingHere ? (
        <OptionForm option={option} />
      ) : (
        <Box
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: 'flex-start',
            gap: 1,
            p: 1,
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
          }}
        >
          <Box
            id={numberId}
            aria-hidden
            sx={{
              minWidth: 32,
              height: 32,
              px: 0.5,
              borderRadius: 16,
              bgcolor: 'primary.main',
              color: 'primary.contrastText',
              display: 'grid',
              placeItems: 'center',
              fontWeight: 600,
              flexShrink: 0,
            }}
          >
            {option.option}
          </Box>
          <Box sx={{ flex: '1 1 160px', minWidth: 0 }}>
            <Typography id={titleId} fontWeight={600} sx={{ wordBreak: 'break-word' }}>
              {option.title}
            </Typography>
            {option.message && (
              <Typography
                variant="body2"
                color="text.secondary"
                sx={{
                  whiteSpace: 'pre-line',
                  wordBreak: 'break-word',
                  display: '-webkit-box',
                  WebkitLineClamp: 3,
                  WebkitBoxOrient: 'vertical',
                  overflow: 'hidden',
                }}
              >
                {option.message}
              </Typography>
            )}
          </Box>
          <Box sx={{ display: 'flex', ml: 'auto', whiteSpace: 'nowrap' }}>
            {hasChildren && (
              <RowAction
                title={t(expanded ? 'options.collapse' : 'options.expand', { title: option.title })}
                icon={expanded ? <ExpandLessIcon /> : <ExpandMoreIcon />}
                onClick={() => setExpanded(!expanded)}
              />
            )}
            <RowAction
              title={t('options.addChild', { title: option.title })}
              icon={<SubdirectoryArrowRightIcon fontSize="small" />}
              onClick={() => {
                setExpanded(true);
                setEditing({ mode: 'add', parentId: option.id });
              }}
            />
            <EditRowAction
              label={t('options.edit', { title: option.title })}
              onClick={() => setEditing({ mode: 'edit', optionId: option.id })}
            />
            <DeleteRowAction
              label={t('options.delete', { title: option.title })}
              onClick={() => askDelete(option)}
            />
          </Box>
        </Box>
      )}
      {((hasChildren && expanded) || addingHere) && (
        <Box sx={{ mt: 1 }}>
          <OptionLevel parent={option} />
        </Box>
      )}
    </Box>
  );
}

interface OptionFormValues {
  option: string;
  title: string;
  message: string;
}

const optionFormSchema = queueOptionCreateSchema.pick({ option: true, title: true, message: true });
const FORM_FIELDS = ['option', 'title', 'message'] as const;

/**
 * The form of one option, inside the queue's form: it is a group, not a nested form, so Enter
 * in its one-line fields saves the option instead of the queue, and Escape closes it only.
 */
function OptionForm(props: {
  option?: QueueOptionFields;
  parent?: QueueOptionFields | null;
  siblings?: readonly QueueOptionFields[];
}) {
  const { option, parent = null, siblings = [] } = props;
  const { t } = useTranslation('queues');
  const validationText = useValidationText();
  const { queueId, closeForm } = useEditor();
  const save = useSaveQueueOption(queueId);
  const cancel = () => closeForm(option?.id ?? parent?.id ?? 'addRoot');
  const groupId = useId();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<OptionFormValues>({
    resolver: zodResolver(optionFormSchema) as unknown as Resolver<OptionFormValues>,
    defaultValues: {
      option: option?.option ?? nextNumber(siblings),
      title: option?.title ?? '',
      message: option?.message ?? '',
    },
  });

  const message = (text: string | undefined) => {
    if (text === 'Duplicated') return t('options.duplicated');
    if (text === OPTION_DIGITS_MESSAGE) return t('options.digits');
    return validationText(text);
  };

  const submit = handleSubmit(async (values) => {
    try {
      const saved = option
        ? await save.mutateAsync({ id: option.id, data: values })
        : await save.mutateAsync({ data: { ...values, queueId, parentId: parent?.id ?? null } });
      toast.success(t('options.saved'));
      closeForm(saved.id);
    } catch (error) {
      if (!applyServerFieldErrors(error, setError, FORM_FIELDS)) toastError(error);
    }
  });

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const multiline = (event.target as HTMLElement).tagName === 'TEXTAREA';
    if (event.key === 'Enter' && !multiline) {
      event.preventDefault();
      void submit();
    } else if (event.key === 'Escape') {
      event.stopPropagation();
      cancel();
    }
  };

  const heading = option
    ? t('options.editing', { title: option.title })
    : parent
      ? t('options.newChild', { title: parent.title })
      : t('options.newOption');

  return (
    <Box
      role="group"
      aria-labelledby={groupId}
      onKeyDown={onKeyDown}
      sx={{
        display: 'grid',
        gap: 1.5,
        gridTemplateColumns: { xs: '1fr', sm: '110px 1fr' },
        p: 1.5,
        border: 1,
        borderColor: 'primary.main',
        borderRadius: 1,
      }}
    >
      <Typography id={groupId} variant="subtitle2" sx={{ gridColumn: '1 / -1' }}>
        {heading}
      </Typography>
      <TextField
        id={`${groupId}-option`}
        label={t('options.number')}
        size="small"
        autoComplete="off"
        error={Boolean(errors.option)}
        helperText={message(errors.option?.message)}
        slotProps={{
          htmlInput: { inputMode: 'numeric', maxLength: 10, 'aria-required': true },
        }}
        {...muiField(register('option'))}
      />
      <TextField
        id={`${groupId}-title`}
        label={t('options.optionTitle')}
        size="small"
        autoComplete="off"
        autoFocus
        error={Boolean(errors.title)}
        helperText={message(errors.title?.message)}
        slotProps={{ htmlInput: { maxLength: 100, 'aria-required': true } }}
        {...muiField(register('title'))}
      />
      <TextField
        id={`${groupId}-message`}
        label={t('options.message')}
        size="small"
        multiline
        minRows={2}
        error={Boolean(errors.message)}
        helperText={message(errors.message?.message)}
        sx={{ gridColumn: '1 / -1' }}
        slotProps={{ htmlInput: { maxLength: 10_000 } }}
        {...muiField(register('message'))}
      />
      <Box sx={{ gridColumn: '1 / -1', display: 'flex', justifyContent: 'flex-end', gap: 1 }}>
        <Button onClick={cancel} disabled={isSubmitting}>
          {t('options.cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={() => void submit()}
          disabled={isSubmitting}
          startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {t('options.save')}
        </Button>
      </Box>
    </Box>
  );
}
