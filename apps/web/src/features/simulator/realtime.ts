import { type ConnectionSession, companyEvent } from '@atendi/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useSocketEvent } from '../../app/socket';
import type { ConnectionEvent, SessionEvent } from '../connections/realtime';
import { type SimulatorConnection, simulatorKeys } from './api';

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

/** The simulator page follows its connections' statuses as they change. */
export function useSimulatorRealtime(companyId: number) {
  const queryClient = useQueryClient();
  useSocketEvent<SessionEvent>(companyEvent(companyId, 'whatsappSession'), (event) => {
    if (event.action !== 'update' || typeof event.session?.id !== 'number') return;
    const session = event.session;
    queryClient.setQueryData<SimulatorConnection[]>(simulatorKeys.connections, (list) =>
      patchSimulatorConnections(list, session),
    );
  });
  useSocketEvent<ConnectionEvent>(companyEvent(companyId, 'whatsapp'), () => {
    // a connection was added, renamed, switched to or from the simulator, or deleted
    void queryClient.invalidateQueries({ queryKey: simulatorKeys.connections });
  });
}
