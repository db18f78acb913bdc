import type { simulatorMessageSchema } from '@atendi/shared';
import type { z } from 'zod';
import type { Storage } from '../../platform/storage';
import type { SimulatorRow } from './simulator.network';

export type SimulatorMessageView = z.infer<typeof simulatorMessageSchema>;

export const presentSimulatorMessage = (
  row: SimulatorRow,
  storage: Storage,
): SimulatorMessageView => ({
  id: row.id,
  direction: row.direction,
  providerMessageId: row.providerMessageId,
  kind: row.kind,
  body: row.isDeleted ? '' : row.body,
  mediaUrl: row.mediaPath && !row.isDeleted ? storage.signedPath(row.mediaPath) : null,
  fileName: row.fileName,
  location: row.location ?? null,
  vcard: row.vcard,
  quotedProviderMessageId: row.quotedProviderMessageId,
  ack: row.ack,
  isDeleted: row.isDeleted,
  isEdited: row.isEdited,
  delivered: row.direction === 'outbound' || row.deliveredAt !== null,
  createdAt: row.createdAt.toISOString(),
});
