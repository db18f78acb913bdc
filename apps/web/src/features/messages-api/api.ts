import {
  connectionsContract as connections,
  type ExternalSend,
  externalApiContract as externalApi,
} from '@atendi/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';

const tokenKey = (connectionId: number | null) => ['messages-api', 'token', connectionId] as const;

/** A connection's external-API token, read from the connection (answered to admins only). */
export function useApiToken(connectionId: number | null) {
  return useQuery({
    queryKey: tokenKey(connectionId),
    enabled: connectionId !== null,
    queryFn: async ({ signal }) => {
      const connection = await api.call(connections.get, {
        params: { id: connectionId! },
        signal,
      });
      return connection.token ?? '';
    },
  });
}

/** A new token for the connection; the old one is refused from then on. */
export function useRegenerateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (connectionId: number) =>
      api.call(connections.regenerateToken, { params: { id: connectionId } }),
    onSuccess: (connection) =>
      queryClient.setQueryData(tokenKey(connection.id), connection.token ?? ''),
  });
}

export type ApiTestSend =
  | { token: string; kind: 'text'; data: ExternalSend }
  | { token: string; kind: 'media'; number: string; body: string; file: File };

/** A send through the public API, as an outside system makes it: with the connection's token. */
export function useApiTestSend() {
  return useMutation({
    meta: { silent: true },
    mutationFn: (input: ApiTestSend) => {
      if (input.kind === 'text') {
        return api.call(externalApi.send, { body: input.data, bearer: input.token });
      }
      const form = new FormData();
      form.append('number', input.number);
      form.append('body', input.body);
      form.append('medias', input.file);
      return api.call(externalApi.send, { body: form, bearer: input.token });
    },
  });
}
