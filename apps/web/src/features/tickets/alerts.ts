import { CLIENT_MESSAGES } from '@atendi/shared';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { matchPath, useNavigate } from 'react-router';
import { useCompanyEvent, useSocket } from '../../app/socket';
import { messageLabel } from '../messages/format';
import {
  askNotificationPermission,
  playNotificationSound,
  showBrowserNotification,
} from './notify';

/**
 * On every screen: a contact's new message in a ticket the agent may see chimes at the volume of
 * the top bar and raises a browser notification (where the user allowed them), unless it is the
 * conversation on screen. A click on the notification opens the ticket, or the waiting line.
 */
export function useMessageAlerts() {
  const socket = useSocket();
  const navigate = useNavigate();
  const { t } = useTranslation('tickets');
  const { t: tm } = useTranslation('messages');

  useEffect(askNotificationPermission, []);

  useEffect(() => {
    if (!socket) return;
    const join = () => socket.emit(CLIENT_MESSAGES.joinNotification);
    join();
    socket.on('connect', join);
    return () => {
      socket.off('connect', join);
    };
  }, [socket]);

  useCompanyEvent('appMessage', (event) => {
    const { message, ticket } = event;
    if (event.action !== 'create' || !message || !ticket || message.fromMe) return;
    // read at the event, not from the last render: a navigation may not have rendered yet
    const onScreen = matchPath('/tickets/:uuid', window.location.pathname)?.params.uuid;
    if (ticket.uuid === onScreen && document.visibilityState === 'visible') return;
    playNotificationSound();
    const name = event.contact?.name ?? ticket.contact?.name ?? '';
    showBrowserNotification(
      t('notification.title', { name }),
      messageLabel(message, tm) || t('notification.media'),
      () => void navigate(ticket.status === 'pending' ? '/tickets' : `/tickets/${ticket.uuid}`),
    );
  });
}
