import {
  type ACK,
  connectionsContract,
  type SimulatorMessage,
  simulatorContract as simulator,
} from '@atendi/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';

export interface SimulatorConnection {
  id: number;
  name: string;
  status: string;
  number: string;
}

export interface SimulatorPhone {
  phone: string;
  name: string;
}

export type SimulatorKind =
  | 'text'
  | 'image'
  | 'audio'
  | 'video'
  | 'document'
  | 'location'
  | 'contact'
  | 'call_log';

export interface SimulatorLocation {
  latitude: number;
  longitude: number;
  name?: string;
}

/** One message of a phone's conversation; `direction` inbound: the phone wrote to the company. */
export type { SimulatorMessage };

/** What the phone may edit: text, and the caption of media (as on WhatsApp). */
export const EDITABLE_KINDS = ['text', 'image', 'video', 'document'];

export interface SimulatorSend {
  name?: string;
  kind: SimulatorKind;
  body: string;
  location?: SimulatorLocation;
  vcard?: string;
  quotedProviderMessageId?: string;
  file?: { name: string; mimeType: string; base64: string };
}

export const simulatorKeys = {
  connections: ['simulator', 'connections'] as const,
  phones: (connectionId: number) => ['simulator', 'phones', connectionId] as const,
  messages: (connectionId: number, phone: string) =>
    ['simulator', 'messages', connectionId, phone] as const,
};

/** The company's simulator connections; statuses follow the session events. */
export function useSimulatorConnections() {
  return useQuery({
    queryKey: simulatorKeys.connections,
    meta: { silent: true },
    queryFn: ({ signal }): Promise<SimulatorConnection[]> =>
      api.call(simulator.connections, { signal }),
  });
}

export function usePhones(connectionId: number | null) {
  return useQuery({
    queryKey: simulatorKeys.phones(connectionId ?? 0),
    enabled: connectionId !== null,
    queryFn: ({ signal }): Promise<SimulatorPhone[]> =>
      api.call(simulator.phones, { params: { id: connectionId! }, signal }),
  });
}

/** Scans a QR text, or with none, the one the connection shows now (no camera here). */
export function useScan() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: async ({ connectionId, qrcode }: { connectionId: number; qrcode?: string }) => {
      let code = qrcode?.trim();
      if (!code) {
        const connection = await api.call(connectionsContract.get, {
          params: { id: connectionId },
        });
        code = connection.qrcode;
        if (!code) throw new NoQrCodeError();
      }
      await api.call(simulator.scan, { params: { id: connectionId }, body: { qrcode: code } });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: simulatorKeys.connections }),
  });
}

export class NoQrCodeError extends Error {
  constructor() {
    super('The connection shows no QR code');
    this.name = 'NoQrCodeError';
  }
}

export function useDisconnectPhone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (connectionId: number) =>
      api.call(simulator.disconnect, { params: { id: connectionId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: simulatorKeys.connections }),
  });
}

/**
 * Adds messages to a conversation by id: new ones at the end, known ones replaced. What only
 * moves forward (ticks, taken by the company, deleted) never moves back, whichever answer or
 * event arrives last.
 */
export function mergeMessages(
  current: readonly SimulatorMessage[] | undefined,
  incoming: readonly SimulatorMessage[],
): SimulatorMessage[] {
  const byId = new Map((current ?? []).map((message) => [message.id, message]));
  for (const message of incoming) {
    const known = byId.get(message.id);
    const isDeleted = message.isDeleted || Boolean(known?.isDeleted);
    byId.set(
      message.id,
      known
        ? {
            ...message,
            ack: Math.max(known.ack, message.ack),
            delivered: known.delivered || message.delivered,
            isDeleted,
            ...(isDeleted ? { body: '', mediaUrl: null } : {}),
          }
        : message,
    );
  }
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/**
 * The conversation of one phone: read once, then kept up to date by the simulator's socket
 * events (see realtime.ts), and read again when the socket comes back after a drop.
 */
export function useConversation(connectionId: number | null, phone: string | null) {
  return useQuery({
    queryKey: simulatorKeys.messages(connectionId ?? 0, phone ?? ''),
    enabled: connectionId !== null && phone !== null,
    meta: { silent: true },
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: ({ signal }): Promise<SimulatorMessage[]> =>
      api.call(simulator.messages, { params: { id: connectionId!, phone: phone! }, signal }),
  });
}

/** Adds a phone that has not written yet; the server keeps it for the next visit. */
export function useAddPhone(connectionId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (phone: SimulatorPhone) =>
      api.call(simulator.addPhone, { params: { id: connectionId }, body: phone }),
    onSuccess: (added) => {
      queryClient.setQueryData<SimulatorPhone[]>(simulatorKeys.phones(connectionId), (list) => [
        added,
        ...(list ?? []).filter((item) => item.phone !== added.phone),
      ]);
    },
  });
}

export function useSendMessage(connectionId: number, phone: string) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: (message: SimulatorSend) =>
      api.call(simulator.send, { params: { id: connectionId, phone }, body: message }),
    onSuccess: (sent) => {
      queryClient.setQueryData<SimulatorMessage[]>(
        simulatorKeys.messages(connectionId, phone),
        (current) => mergeMessages(current, [sent]),
      );
      void queryClient.invalidateQueries({ queryKey: simulatorKeys.phones(connectionId) });
    },
  });
}

/** The phone received (3), read (4) or played (5) the company's messages: their ticks move on. */
export function useMarkRead(connectionId: number, phone: string) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: (ack: typeof ACK.delivered | typeof ACK.read | typeof ACK.played) =>
      api.call(simulator.read, { params: { id: connectionId, phone }, body: { ack } }),
    onSuccess: (_result, ack) => {
      queryClient.setQueryData<SimulatorMessage[]>(
        simulatorKeys.messages(connectionId, phone),
        (current) =>
          current?.map((message) =>
            message.direction === 'outbound' && message.ack < ack ? { ...message, ack } : message,
          ),
      );
    },
  });
}

/** The phone edits (body) or deletes for everyone (no body) one of its own messages. */
export function useChangeOwnMessage(connectionId: number, phone: string) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: ({ id, body }: { id: number; body?: string }) => {
      const params = { id: connectionId, phone, messageId: id };
      return body === undefined
        ? api.call(simulator.remove, { params })
        : api.call(simulator.edit, { params, body: { body } });
    },
    onSuccess: (changed) => {
      queryClient.setQueryData<SimulatorMessage[]>(
        simulatorKeys.messages(connectionId, phone),
        (current) => mergeMessages(current, [changed]),
      );
    },
  });
}
