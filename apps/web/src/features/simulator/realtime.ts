import { CLIENT_MESSAGES, type ConnectionSession } from '@atendi/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { setLiveQueryData } from '../../app/liveCache';
import { useCompanyEvent, useSocket } from '../../app/socket';
import {
  mergeMessages,
  type SimulatorConnection,
  type SimulatorMessage,
  type SimulatorPhone,
  simulatorKeys,
} from './api';

export function patchSimulatorConnections(
  list: SimulatorConnection[] | undefined,
  session: Pick<ConnectionSession, 'id'> & Partial<ConnectionSession>,
): SimulatorConnection[] | undefined {
  return list?.map((item) =>
    item.id === session.id
      ? {
          ...item,
          status: session.status ?? item.status,
          number: session.number ?? item.number,
          name: session.name ?? item.name,
        }
      : item,
  );
}

/**
 * The simulator page follows its connections' statuses and its phones' conversations as they
 * change, by socket events; nothing is polled.
 */
export function useSimulatorRealtime() {
  const queryClient = useQueryClient();
  const socket = useSocket();
  useCompanyEvent('whatsappSession', (event) => {
    if (event.action !== 'update' || typeof event.session?.id !== 'number') return;
    const session = event.session;
    setLiveQueryData<SimulatorConnection[]>(queryClient, simulatorKeys.connections, (list) =>
      patchSimulatorConnections(list, session),
    );
  });
  useCompanyEvent('whatsapp', () => {
    // a connection was added, renamed, switched to or from the simulator, or deleted
    void queryClient.invalidateQueries({ queryKey: simulatorKeys.connections });
  });
  useCompanyEvent('simulator', (event) => {
    if (event.action !== 'update' || !Array.isArray(event.messages)) return;
    const key = simulatorKeys.messages(event.connectionId, event.phone);
    // a conversation not open yet is read in full when it opens
    setLiveQueryData<SimulatorMessage[]>(queryClient, key, (current) =>
      current ? mergeMessages(current, event.messages) : current,
    );
    const phones = queryClient.getQueryData<SimulatorPhone[]>(
      simulatorKeys.phones(event.connectionId),
    );
    if (phones && !phones.some((item) => item.phone === event.phone)) {
      void queryClient.invalidateQueries({ queryKey: simulatorKeys.phones(event.connectionId) });
    }
  });
  // The page's room; events sent while the socket was away are lost, so after a drop it joins
  // again and reads everything again.
  useEffect(() => {
    if (!socket) return;
    const join = () => socket.emit(CLIENT_MESSAGES.joinSimulator);
    const rejoin = () => {
      join();
      void queryClient.invalidateQueries({ queryKey: ['simulator'] });
    };
    join();
    socket.on('connect', rejoin);
    return () => {
      socket.off('connect', rejoin);
      socket.emit(CLIENT_MESSAGES.leaveSimulator);
    };
  }, [socket, queryClient]);
}
