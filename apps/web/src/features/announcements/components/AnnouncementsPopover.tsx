import type { Announcement } from '@atendi/shared';
import AnnouncementIcon from '@mui/icons-material/Announcement';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Popover from '@mui/material/Popover';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { flattenPages } from '../../contacts/pagedCache';
import { useAnnouncements, useAnnouncementsRealtime } from '../api';
import { priorityColor } from '../priority';

/** The top bar's announcements: the active ones, most urgent first, live for every user. */
export function AnnouncementsPopover() {
  const { t } = useTranslation('announcements');
  useAnnouncementsRealtime();
  const records = useAnnouncements('');
  const rows: Announcement[] = flattenPages(records.data, 'records').filter(
    (record) => record.status,
  );
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const popoverId = useId();
  const titleId = useId();
  const label = t('popover.open');
  const count = rows.length;
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          color="inherit"
          aria-label={`${label} (${t('popover.count', { count })})`}
          aria-haspopup="dialog"
          aria-expanded={anchor ? 'true' : undefined}
          aria-controls={anchor ? popoverId : undefined}
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <Badge badgeContent={count} color="secondary" max={99}>
            <AnnouncementIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        id={popoverId}
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { role: 'dialog', 'aria-labelledby': titleId } }}
      >
        <Box
          sx={{ width: { xs: 'calc(100vw - 32px)', sm: 380 }, maxHeight: 440, overflowY: 'auto' }}
        >
          <Typography id={titleId} variant="subtitle1" sx={{ px: 2, pt: 1.5 }}>
            {label}
          </Typography>
          {count === 0 ? (
            <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 2 }}>
              {t('popover.empty')}
            </Typography>
          ) : (
            <List aria-labelledby={titleId}>
              {rows.map((record) => (
                <ListItem
                  key={record.id}
                  sx={{
                    display: 'block',
                    borderLeft: `6px solid ${priorityColor(record.priority)}`,
                    mb: 1,
                  }}
                >
                  <Typography variant="subtitle2" sx={{ wordBreak: 'break-word' }}>
                    {record.title}
                    <Typography
                      component="span"
                      variant="caption"
                      sx={{ ml: 1, color: priorityColor(record.priority) }}
                    >
                      {t(`priority.${record.priority}`, { defaultValue: '' })}
                    </Typography>
                  </Typography>
                  {record.mediaPath && (
                    <Box
                      component="img"
                      src={record.mediaPath}
                      alt={record.mediaName ?? ''}
                      sx={{ maxWidth: '100%', maxHeight: 160, my: 0.5, display: 'block' }}
                    />
                  )}
                  <Typography
                    variant="body2"
                    color="text.secondary"
                    sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
                  >
                    {record.text}
                  </Typography>
                </ListItem>
              ))}
            </List>
          )}
        </Box>
      </Popover>
    </>
  );
}
