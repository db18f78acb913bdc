import { z } from 'zod';
import type { Storage } from '../../platform/storage';
import type { SimulatorRow } from './simulator.network';

/** One message of a phone's conversation, as the simulator page reads it and hears it. */
export const simulatorMessageSchema = z.object({
  id: z.number(),
  direction: z.enum(['inbound', 'outbound']),
  providerMessageId: z.string(),
  kind: z.string(),
  body: z.string(),
  mediaUrl: z.string().nullable(),
  fileName: z.string().nullable(),
  location: z
    .object({ latitude: z.number(), longitude: z.number(), name: z.string().optional() })
    .nullable(),
  vcard: z.string().nullable(),
  quotedProviderMessageId: z.string().nullable(),
  ack: z.number(),
  isDeleted: z.boolean(),
  isEdited: z.boolean(),
  delivered: z.boolean(),
  createdAt: z.string(),
});

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
