import type { Campaign } from '@atendi/shared';
import AddIcon from '@mui/icons-material/Add';
import AssessmentIcon from '@mui/icons-material/Assessment';
import PauseCircleOutlineIcon from '@mui/icons-material/PauseCircleOutline';
import PlayCircleOutlineIcon from '@mui/icons-material/PlayCircleOutline';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useClock } from '../../../app/clock';
import { useConfirmation } from '../../../app/components/ConfirmDialog';
import { toastError } from '../../../app/errors';
import { ListPage } from '../../../app/list/ListPage';
import type { ListColumn } from '../../../app/list/ListTable';
import { DeleteRowAction, EditRowAction, RowAction } from '../../../app/list/RowActions';
import { useListSearch } from '../../../app/list/useListSearch';
import { useRecordDialog } from '../../../app/list/useRecordDialog';
import { toast } from '../../../app/toast';
import { flattenPages } from '../../contacts/pagedCache';
import { useCampaignAction, useCampaigns, useDeleteCampaign } from '../api';
import { CampaignDialog } from '../components/CampaignDialog';
import { useCampaignsRealtime } from '../realtime';

/** A campaign without a schedule starts by hand once it names a connection and its recipients. */
const ready = (campaign: Campaign) =>
  campaign.whatsappId !== null && (campaign.contactListId !== null || campaign.tagListId !== null);

/** The campaigns table (spec administration 2) with its fallbacks and the actions by status. */
export function CampaignsPage() {
  const { t } = useTranslation('campaigns');
  const clock = useClock();
  const navigate = useNavigate();
  useCampaignsRealtime();
  const search = useListSearch();
  const campaigns = useCampaigns(search.param);
  const rows = flattenPages(campaigns.data, 'records');
  const dialog = useRecordDialog<Campaign>();
  const remove = useDeleteCampaign();
  const cancel = useCampaignAction('cancel');
  const restart = useCampaignAction('restart');
  const deletion = useConfirmation<Campaign>(
    (campaign) => remove.mutateAsync(campaign.id),
    t('toasts.deleted'),
  );

  const act = async (action: typeof cancel, campaign: Campaign, done: string) => {
    try {
      await action.mutateAsync(campaign.id);
      toast.success(done);
    } catch (error) {
      toastError(error);
    }
  };

  const columns: ListColumn<Campaign>[] = [
    { id: 'name', header: t('columns.name'), cell: (c) => c.name },
    {
      id: 'status',
      header: t('columns.status'),
      align: 'center',
      cell: (c) => t(`status.${c.status}`),
    },
    {
      id: 'contactList',
      header: t('columns.contactList'),
      align: 'center',
      cell: (c) => c.contactList?.name ?? t('fallback.contactList'),
    },
    {
      id: 'whatsapp',
      header: t('columns.whatsapp'),
      align: 'center',
      cell: (c) => c.whatsapp?.name ?? t('fallback.whatsapp'),
    },
    {
      id: 'scheduledAt',
      header: t('columns.scheduledAt'),
      align: 'center',
      cell: (c) => clock.dateTime(c.scheduledAt) || t('fallback.scheduledAt'),
    },
    {
      id: 'completedAt',
      header: t('columns.completedAt'),
      align: 'center',
      cell: (c) => clock.dateTime(c.completedAt) || t('fallback.completedAt'),
    },
    {
      id: 'confirmation',
      header: t('columns.confirmation'),
      align: 'center',
      cell: (c) => (c.confirmation ? t('confirmation.enabled') : t('confirmation.disabled')),
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
      rowKey={(campaign) => campaign.id}
      rowActions={(campaign) => (
        <>
          {campaign.status === 'EM_ANDAMENTO' && (
            <RowAction
              title={t('actions.stopShort')}
              label={t('actions.stop', { name: campaign.name })}
              icon={<PauseCircleOutlineIcon fontSize="small" />}
              onClick={() => void act(cancel, campaign, t('toasts.stopped'))}
            />
          )}
          {campaign.status === 'INATIVA' && (
            <RowAction
              title={ready(campaign) ? t('actions.startShort') : t('actions.startNeeds')}
              label={t('actions.start', { name: campaign.name })}
              icon={<PlayCircleOutlineIcon fontSize="small" />}
              disabled={!ready(campaign)}
              onClick={() => void act(restart, campaign, t('toasts.started'))}
            />
          )}
          {campaign.status === 'CANCELADA' && (
            <RowAction
              title={t('actions.restartShort')}
              label={t('actions.restart', { name: campaign.name })}
              icon={<PlayCircleOutlineIcon fontSize="small" />}
              onClick={() => void act(restart, campaign, t('toasts.restarted'))}
            />
          )}
          <RowAction
            title={t('report.chart')}
            label={t('actions.report', { name: campaign.name })}
            icon={<AssessmentIcon fontSize="small" />}
            onClick={() => navigate(`/campaign/${campaign.id}/report`)}
          />
          <EditRowAction
            label={t('actions.edit', { name: campaign.name })}
            onClick={() => dialog.edit(campaign)}
          />
          <DeleteRowAction
            label={t('actions.delete', { name: campaign.name })}
            onClick={() => deletion.ask(campaign)}
          />
        </>
      )}
      loading={campaigns.isPending}
      failed={campaigns.isError}
      emptyText={t('empty')}
      more={campaigns}
      confirmDelete={{
        confirmation: deletion,
        title: (campaign) => t('confirmDelete.title', { name: campaign.name }),
        message: t('confirmDelete.message'),
      }}
    >
      {dialog.open && (
        <CampaignDialog key={dialog.key} open campaign={dialog.record} onClose={dialog.close} />
      )}
    </ListPage>
  );
}
