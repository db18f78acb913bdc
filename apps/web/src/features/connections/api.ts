import { useQuery } from '@tanstack/react-query';
import { api } from '../../app/api';

/** What the shell needs of a connection; the connections page will own the full shape. */
export interface ConnectionSummary {
  id: number;
  name: string;
  status?: string;
  isDefault?: boolean;
}

export const connectionsKey = ['connections', 'list'] as const;

/** Statuses that put the '!' badge on the menu's Connections item (spec core 2). */
export const ATTENTION_STATUSES: readonly string[] = [
  'qrcode',
  'PAIRING',
  'DISCONNECTED',
  'TIMEOUT',
  'OPENING',
];

export const needsAttention = (connections: readonly ConnectionSummary[]): boolean =>
  connections.some((connection) => ATTENTION_STATUSES.includes(connection.status ?? ''));

/** The company's connections; a failed load counts as none (the forms still open). */
export function useConnections({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: connectionsKey,
    enabled,
    queryFn: async ({ signal }) => {
      try {
        const data = await api.get<ConnectionSummary[]>('/whatsapp', { signal });
        return Array.isArray(data) ? data : [];
      } catch {
        return [];
      }
    },
  });
}
