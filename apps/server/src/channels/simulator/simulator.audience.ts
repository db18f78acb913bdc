import type { RealtimeAudience } from '../../platform/realtime';

/** A simulated phone's conversation: only sockets on the simulator page (joinSimulator). */
export const simulatorAudience: RealtimeAudience = (events, realtime) => {
  events.on('simulator.changed', ({ companyId, connectionId, phone, messages }) =>
    realtime.emit({ companyId, simulator: true }, 'simulator', {
      action: 'update',
      connectionId,
      phone,
      messages,
    }),
  );
};
