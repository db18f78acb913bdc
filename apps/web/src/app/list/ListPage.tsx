import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmationDialog, type ConfirmationDialogProps } from '../components/ConfirmDialog';
import { PageHeader } from '../components/PageHeader';
import { ListTable, type ListTableProps } from './ListTable';
import { SearchField } from './SearchField';
import type { ListSearch } from './useListSearch';

export interface ListPageProps<T> extends Omit<ListTableProps<T>, 'label' | 'resetKey'> {
  title: string;
  /** The table's accessible name; the title when not given. */
  label?: string;
  /** A search box in the header (from `useListSearch`); a new search scrolls back to the top. */
  search?: ListSearch;
  searchLabel?: string;
  /** The header's buttons, after the search box. */
  actions?: ReactNode;
  /** Between the header and the table (the progress of an import...). */
  notice?: ReactNode;
  /** Under the table (how many rows are shown...). */
  footer?: ReactNode;
  /** The confirmation asked before a row is deleted; its button reads 'Excluir' unless told. */
  confirmDelete?: Omit<ConfirmationDialogProps<T>, 'confirmLabel'> & { confirmLabel?: string };
  /** The page's own dialogs. */
  children?: ReactNode;
}

/**
 * A list screen: title, search and actions in the header, the table (infinite when `more` is
 * given), and the delete confirmation.
 */
export function ListPage<T>(props: ListPageProps<T>) {
  const { title, label, search, searchLabel, actions, notice, footer, confirmDelete, children } =
    props;
  const { t } = useTranslation('common');
  return (
    <>
      <PageHeader title={title}>
        {search && (
          <SearchField value={search.text} onChange={search.setText} label={searchLabel} />
        )}
        {actions}
      </PageHeader>
      {notice}
      <ListTable
        label={label ?? title}
        columns={props.columns}
        rows={props.rows}
        rowKey={props.rowKey}
        rowActions={props.rowActions}
        rowSx={props.rowSx}
        loading={props.loading}
        failed={props.failed}
        emptyText={props.emptyText}
        more={props.more}
        resetKey={search?.param}
        cardsOnPhone={props.cardsOnPhone}
      />
      {footer}
      {children}
      {confirmDelete && (
        <ConfirmationDialog
          {...confirmDelete}
          confirmLabel={confirmDelete.confirmLabel ?? t('actions.delete')}
        />
      )}
    </>
  );
}
