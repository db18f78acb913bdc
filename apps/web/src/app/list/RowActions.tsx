import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Keeps a row's buttons on one line where they stand outside the actions column. */
export function RowActions({ children }: { children: ReactNode }) {
  return (
    <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
      {children}
    </Box>
  );
}

interface RowActionProps {
  /** The tooltip: what the button does. */
  title: string;
  /** What a screen reader hears: the action and the row ('Editar Ana'); `title` when not given. */
  label?: string;
  icon: ReactNode;
  onClick: () => void;
  disabled?: boolean;
}

/** One icon button of a row, with a tooltip that still shows while it is disabled. */
export function RowAction({ title, label, icon, onClick, disabled }: RowActionProps) {
  const button = (
    <IconButton size="small" aria-label={label ?? title} disabled={disabled} onClick={onClick}>
      {icon}
    </IconButton>
  );
  // a disabled button fires no events: the span carries the tooltip's hover and focus
  return <Tooltip title={title}>{disabled ? <span>{button}</span> : button}</Tooltip>;
}

type NamedActionProps = Omit<RowActionProps, 'icon' | 'title'> & { title?: string };

export function EditRowAction(props: NamedActionProps) {
  const { t } = useTranslation('common');
  return (
    <RowAction
      {...props}
      title={props.title ?? t('actions.edit')}
      icon={<EditIcon fontSize="small" />}
    />
  );
}

export function DeleteRowAction(props: NamedActionProps) {
  const { t } = useTranslation('common');
  return (
    <RowAction
      {...props}
      title={props.title ?? t('actions.delete')}
      icon={<DeleteOutlineIcon fontSize="small" />}
    />
  );
}
