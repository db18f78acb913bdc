import { ACK, type Connection } from '@atendi/shared';
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

export interface SimulatorMessage {
  id: number;
  /** inbound: the phone wrote to the company; outbound: the company wrote to the phone. */
  direction: 'inbound' | 'outbound';
  providerMessageId: string;
  kind: SimulatorKind | string;
  body: string;
  /** Signed path on the API: prefix it with the API's address. */
  mediaUrl: string | null;
  fileName: string | null;
  location: SimulatorLocation | null;
  vcard: string | null;
  ack: number;
  isDeleted: boolean;
  /** The phone changed its text after sending it. */
  isEdited?: boolean;
  /** The message this one replies to. */
  quotedProviderMessageId?: string | null;
  /** Inbound only: the company's connection took it. */
  delivered: boolean;
  createdAt: string;
}

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

const base = (connectionId: number) => `/simulator/connections/${connectionId}`;

/** The company's simulator connections; statuses also follow the session events. */
export function useSimulatorConnections() {
  return useQuery({
    queryKey: simulatorKeys.connections,
    meta: { silent: true },
    refetchInterval: 10_000,
    queryFn: ({ signal }) => api.get<SimulatorConnection[]>('/simulator/connections', { signal }),
  });
}

export function usePhones(connectionId: number | null) {
  return useQuery({
    queryKey: simulatorKeys.phones(connectionId ?? 0),
    enabled: connectionId !== null,
    queryFn: ({ signal }) => api.get<SimulatorPhone[]>(`${base(connectionId!)}/phones`, { signal }),
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
        const connection = await api.get<Connection>(`/whatsapp/${connectionId}`);
        code = connection.qrcode;
        if (!code) throw new NoQrCodeError();
      }
      await api.post(`${base(connectionId)}/scan`, { qrcode: code });
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
    mutationFn: (connectionId: number) => api.post(`${base(connectionId)}/disconnect`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: simulatorKeys.connections }),
  });
}

/** Adds messages to a conversation by id: new ones at the end, known ones replaced. */
export function mergeMessages(
  current: readonly SimulatorMessage[] | undefined,
  incoming: readonly SimulatorMessage[],
): SimulatorMessage[] {
  const byId = new Map((current ?? []).map((message) => [message.id, message]));
  for (const message of incoming) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/**
 * Where the next poll starts: before the oldest message that can still change (an inbound one
 * the company has not taken or read yet, or a reply not read yet), else after the newest.
 */
export function pollCursor(messages: readonly SimulatorMessage[]): number {
  const open = messages.find((message) =>
    message.direction === 'inbound'
      ? !message.delivered || message.ack < ACK.read
      : message.ack < ACK.read && !message.isDeleted,
  );
  if (open) return open.id - 1;
  return messages.at(-1)?.id ?? 0;
}

export const POLL_INTERVAL_MS = 1_000;
/**
 * Every so many polls the whole conversation is read again, so a reply the company deletes for
 * everyone after the phone read it shows as deleted within seconds, as on a phone.
 */
const FULL_READ_EVERY = 5;
const SERVER_PAGE = 500;

/** The conversation of one phone, polled every second with `after`. */
export function useConversation(connectionId: number | null, phone: string | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: simulatorKeys.messages(connectionId ?? 0, phone ?? ''),
    enabled: connectionId !== null && phone !== null,
    meta: { silent: true },
    refetchInterval: POLL_INTERVAL_MS,
    refetchIntervalInBackground: true,
    staleTime: 0,
    queryFn: async ({ queryKey, signal }) => {
      const current = queryClient.getQueryData<SimulatorMessage[]>(queryKey) ?? [];
      const polls = (pollCounts.get(queryKey.join('/')) ?? 0) + 1;
      pollCounts.set(queryKey.join('/'), polls);
      const full = polls % FULL_READ_EVERY === 0 && current.length < SERVER_PAGE;
      const after = full ? 0 : pollCursor(current);
      const incoming = await api.get<SimulatorMessage[]>(
        `${base(connectionId!)}/phones/${phone}/messages`,
        { query: { after }, signal },
      );
      if (full) return mergeMessages([], incoming);
      // read again: the cache may have gained the message just sent while this was in flight
      return mergeMessages(queryClient.getQueryData<SimulatorMessage[]>(queryKey), incoming);
    },
  });
}

const pollCounts = new Map<string, number>();

export function useSendMessage(connectionId: number, phone: string) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: (message: SimulatorSend) =>
      api.post<SimulatorMessage>(`${base(connectionId)}/phones/${phone}/messages`, message),
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
      api.post<{ updated: number }>(`${base(connectionId)}/phones/${phone}/read`, { ack }),
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
      const path = `${base(connectionId)}/phones/${phone}/messages/${id}`;
      return body === undefined
        ? api.delete<SimulatorMessage>(path)
        : api.put<SimulatorMessage>(path, { body });
    },
    onSuccess: (changed) => {
      queryClient.setQueryData<SimulatorMessage[]>(
        simulatorKeys.messages(connectionId, phone),
        (current) => mergeMessages(current, [changed]),
      );
    },
  });
}
