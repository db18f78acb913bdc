import { act } from '@testing-library/react';
import type { Socket } from 'socket.io-client';

type Handler = (payload: unknown) => void;

/** A socket that only delivers what the test emits, for <SocketContext.Provider>. */
export function fakeSocket() {
  const handlers = new Map<string, Set<Handler>>();
  const socket = {
    on(event: string, handler: Handler) {
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event)!.add(handler);
      return socket;
    },
    off(event: string, handler: Handler) {
      handlers.get(event)?.delete(handler);
      return socket;
    },
    emit() {
      return socket;
    },
  };
  return {
    socket: socket as unknown as Socket,
    /** Delivers a server event to every listener, as socket.io would. */
    serverEmit(event: string, payload: unknown) {
      act(() => {
        for (const handler of handlers.get(event) ?? []) handler(payload);
      });
    },
  };
}
