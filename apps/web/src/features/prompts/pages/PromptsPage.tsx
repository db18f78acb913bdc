import type { Prompt } from '@atendi/shared';
import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import { useClock } from '../../../app/clock';
import { useConfirmation } from '../../../app/components/ConfirmDialog';
import { ListPage } from '../../../app/list/ListPage';
import type { ListColumn } from '../../../app/list/ListTable';
import { DeleteRowAction, EditRowAction } from '../../../app/list/RowActions';
import { useListSearch } from '../../../app/list/useListSearch';
import { useRecordDialog } from '../../../app/list/useRecordDialog';
import { toast } from '../../../app/toast';
import { flattenPages } from '../../contacts/pagedCache';
import { useDeletePrompt, usePrompts, usePromptsRealtime } from '../api';
import { PromptDialog } from '../components/PromptDialog';

/** AI prompts (spec administration 3): name, queue, max tokens, actions; a dialog. */
export function PromptsPage() {
  const { t } = useTranslation('prompts');
  const clock = useClock();
  usePromptsRealtime();
  const search = useListSearch();
  const prompts = usePrompts(search.param);
  const rows = flattenPages(prompts.data, 'prompts');
  const dialog = useRecordDialog<Prompt>();
  const deletePrompt = useDeletePrompt();
  // the server's message is shown as info, as the original client does
  const deletion = useConfirmation<Prompt>((prompt) =>
    deletePrompt.mutateAsync(prompt.id).then(() => toast.info(t('toasts.deleted'))),
  );

  const columns: ListColumn<Prompt>[] = [
    { id: 'name', header: t('columns.name'), cell: (prompt) => prompt.name },
    {
      id: 'queue',
      header: t('columns.queue'),
      cell: (prompt) => prompt.queue?.name ?? '',
    },
    {
      id: 'maxTokens',
      header: t('columns.maxTokens'),
      align: 'center',
      cell: (prompt) => prompt.maxTokens,
    },
    {
      id: 'health',
      header: t('columns.health'),
      // what went wrong last with its provider, and when; answered again, it is clear
      cell: (prompt) =>
        prompt.lastError ? (
          <Chip
            size="small"
            color="error"
            variant="outlined"
            label={t(`health.${prompt.lastError}`)}
            title={t('health.since', { date: clock.dateTime(prompt.lastErrorAt) })}
          />
        ) : (
          <Chip size="small" color="success" variant="outlined" label={t('health.ok')} />
        ),
    },
  ];

  return (
    <ListPage
      title={t('title')}
      search={search}
      actions={
        <Button variant="contained" startIcon={<AddIcon />} onClick={dialog.add}>
          {t('add')}
        </Button>
      }
      columns={columns}
      rows={rows}
      rowKey={(prompt) => prompt.id}
      rowActions={(prompt) => (
        <>
          <EditRowAction
            label={t('editPrompt', { name: prompt.name })}
            onClick={() => dialog.edit(prompt)}
          />
          <DeleteRowAction
            label={t('deletePrompt', { name: prompt.name })}
            onClick={() => deletion.ask(prompt)}
          />
        </>
      )}
      loading={prompts.isPending}
      failed={prompts.isError}
      emptyText={t('empty')}
      more={prompts}
      confirmDelete={{
        confirmation: deletion,
        title: (prompt) => t('confirmDelete.title', { name: prompt.name }),
        message: t('confirmDelete.message'),
      }}
    >
      {dialog.open && (
        <PromptDialog key={dialog.key} open prompt={dialog.record} onClose={dialog.close} />
      )}
    </ListPage>
  );
}
