import { Readable } from 'node:stream';
import { ACK, idParamsSchema } from '@atendi/shared';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { connections } from '../../db/schema';
import { tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import { routes } from '../../platform/routes';
import type { Storage } from '../../platform/storage';
import { fileNameOf } from '../../platform/uploads';
import { inboundId, type SimulatorNetwork, type SimulatorRow } from './simulator.network';
import { presentSimulatorMessage, simulatorMessageSchema } from './simulator.present';

const phoneParams = z.strictObject({
  id: idParamsSchema.shape.id,
  phone: z.string().regex(/^\d{8,15}$/, 'Digits only, 8 to 15'),
});

const messageParams = phoneParams.extend({ messageId: idParamsSchema.shape.id });

const KINDS = [
  'text',
  'image',
  'audio',
  'video',
  'document',
  'location',
  'contact',
  'call_log',
] as const;

const sendSchema = z.strictObject({
  name: z.string().trim().max(50).optional(),
  kind: z.enum(KINDS).default('text'),
  body: z.string().max(4096).default(''),
  location: z
    .strictObject({
      latitude: z.number().min(-90).max(90),
      longitude: z.number().min(-180).max(180),
      name: z.string().max(200).optional(),
    })
    .optional(),
  vcard: z.string().max(10_000).optional(),
  quotedProviderMessageId: z.string().max(100).optional(),
  /** A file as base64, for the media kinds (the page reads the chosen file). */
  file: z
    .strictObject({
      name: z.string().max(255),
      mimeType: z
        .string()
        .max(100)
        .regex(/^[\w.+-]+\/[\w.+-]+$/),
      base64: z.string().max(22_000_000),
    })
    .optional(),
});

/**
 * The simulator page's API: a person plays the contacts of the company's simulator
 * connections. Everything here is scoped to the caller's company.
 */
export const simulatorRoutes = (network: SimulatorNetwork, storage: Storage) =>
  routes(async (app) => {
    const tags = ['simulator'];

    async function simulatorConnection(ctx: RequestContext, id: number) {
      const [row] = await tenantDb(ctx)
        .select({ id: connections.id, status: connections.status, qrcode: connections.qrcode })
        .from(connections, and(eq(connections.id, id), eq(connections.provider, 'simulator')));
      if (!row) throw new AppError('ERR_NO_WAPP_FOUND', 404);
      return row;
    }

    const present = (row: SimulatorRow) => presentSimulatorMessage(row, storage);

    app.get(
      '/simulator/connections',
      {
        config: { access: 'connections:read' },
        schema: {
          tags,
          response: {
            200: z.array(
              z.object({
                id: z.number(),
                name: z.string(),
                status: z.string(),
                number: z.string(),
              }),
            ),
          },
        },
      },
      (req) =>
        tenantDb(req.ctx)
          .select({
            id: connections.id,
            name: connections.name,
            status: connections.status,
            number: connections.number,
          })
          .from(connections, eq(connections.provider, 'simulator'))
          .orderBy(connections.name),
    );

    app.post(
      '/simulator/connections/:id/scan',
      {
        config: { access: 'connections:read' },
        schema: {
          tags,
          params: idParamsSchema,
          body: z.strictObject({ qrcode: z.string().max(200) }),
        },
      },
      async (req, reply) => {
        const connection = await simulatorConnection(req.ctx, req.params.id);
        if (!connection.qrcode || connection.qrcode !== req.body.qrcode) {
          throw new AppError('ERR_VALIDATION', 400, {
            fields: [{ path: 'body.qrcode', message: 'QR code expired or unknown' }],
          });
        }
        await network.setPaired(req.ctx.companyId, connection.id, true);
        return reply.status(204).send();
      },
    );

    app.post(
      '/simulator/connections/:id/disconnect',
      { config: { access: 'connections:read' }, schema: { tags, params: idParamsSchema } },
      async (req, reply) => {
        const connection = await simulatorConnection(req.ctx, req.params.id);
        await network.setPaired(req.ctx.companyId, connection.id, false);
        return reply.status(204).send();
      },
    );

    app.get(
      '/simulator/connections/:id/phones',
      {
        config: { access: 'connections:read' },
        schema: {
          tags,
          params: idParamsSchema,
          response: { 200: z.array(z.object({ phone: z.string(), name: z.string() })) },
        },
      },
      async (req) => {
        const connection = await simulatorConnection(req.ctx, req.params.id);
        const rows = await network.phones(req.ctx.companyId, connection.id);
        return rows.map(({ phone, name }) => ({ phone, name }));
      },
    );

    // A phone added on the page before it writes: kept, so it is still listed after a reload.
    app.post(
      '/simulator/connections/:id/phones',
      {
        config: { access: 'connections:read' },
        schema: {
          tags,
          params: idParamsSchema,
          body: z.strictObject({
            phone: phoneParams.shape.phone,
            name: z.string().trim().min(1).max(50),
          }),
          response: { 201: z.object({ phone: z.string(), name: z.string() }) },
        },
      },
      async (req, reply) => {
        const connection = await simulatorConnection(req.ctx, req.params.id);
        const { phone, name } = req.body;
        await network.addPhone(req.ctx.companyId, connection.id, phone, name);
        return reply.status(201).send({ phone, name });
      },
    );

    app.get(
      '/simulator/connections/:id/phones/:phone/messages',
      {
        config: { access: 'connections:read' },
        schema: {
          tags,
          params: phoneParams,
          querystring: z.strictObject({ after: z.coerce.number().int().min(0).default(0) }),
          response: { 200: z.array(simulatorMessageSchema) },
        },
      },
      async (req) => {
        const connection = await simulatorConnection(req.ctx, req.params.id);
        const rows = await network.conversation(
          req.ctx.companyId,
          connection.id,
          req.params.phone,
          req.query.after,
        );
        return rows.map(present);
      },
    );

    app.post(
      '/simulator/connections/:id/phones/:phone/messages',
      {
        config: { access: 'connections:read' },
        bodyLimit: 30 * 1024 * 1024,
        schema: {
          tags,
          params: phoneParams,
          body: sendSchema,
          response: { 201: simulatorMessageSchema },
        },
      },
      async (req, reply) => {
        const connection = await simulatorConnection(req.ctx, req.params.id);
        const { file, ...message } = req.body;
        const stored = file
          ? await storage.save(
              req.ctx.companyId,
              file.mimeType,
              Readable.from(Buffer.from(file.base64, 'base64')),
            )
          : undefined;
        // The file goes with its row: a row the database refuses leaves no file behind.
        const row = await network
          .record(req.ctx.companyId, {
            connectionId: connection.id,
            phone: req.params.phone,
            phoneName: message.name ?? '',
            direction: 'inbound',
            providerMessageId: inboundId(),
            kind: message.kind,
            body: message.body,
            mediaPath: stored?.key ?? null,
            mimeType: file?.mimeType ?? null,
            fileName: file ? fileNameOf(file.name) : null,
            location: message.location ?? null,
            vcard: message.vcard ?? null,
            quotedProviderMessageId: message.quotedProviderMessageId ?? null,
            ack: ACK.pending,
          })
          .catch(async (error: unknown) => {
            if (stored) await storage.remove(stored.key).catch(() => {});
            throw error;
          });
        await network.signal({ type: 'inbound', connectionId: connection.id });
        return reply.status(201).send(present(row!));
      },
    );

    // The phone edits one of its messages (text, or a caption), as WhatsApp allows.
    app.put(
      '/simulator/connections/:id/phones/:phone/messages/:messageId',
      {
        config: { access: 'connections:read' },
        schema: {
          tags,
          params: messageParams,
          body: z.strictObject({ body: z.string().trim().min(1).max(4096) }),
          response: { 200: simulatorMessageSchema },
        },
      },
      async (req) => {
        const connection = await simulatorConnection(req.ctx, req.params.id);
        const row = await network.changeOwn(
          req.ctx.companyId,
          connection.id,
          req.params.phone,
          req.params.messageId,
          { type: 'edit', body: req.body.body },
        );
        // Only the phone's own messages, not deleted, and of a kind WhatsApp lets one edit.
        if (!row) throw new AppError('ERR_NOT_FOUND', 404);
        return present(row);
      },
    );

    // The phone deletes one of its messages for everyone.
    app.delete(
      '/simulator/connections/:id/phones/:phone/messages/:messageId',
      {
        config: { access: 'connections:read' },
        schema: { tags, params: messageParams, response: { 200: simulatorMessageSchema } },
      },
      async (req) => {
        const connection = await simulatorConnection(req.ctx, req.params.id);
        const row = await network.changeOwn(
          req.ctx.companyId,
          connection.id,
          req.params.phone,
          req.params.messageId,
          { type: 'delete' },
        );
        if (!row) throw new AppError('ERR_NOT_FOUND', 404);
        return present(row);
      },
    );

    app.post(
      '/simulator/connections/:id/phones/:phone/read',
      {
        config: { access: 'connections:read' },
        schema: {
          tags,
          params: phoneParams,
          // The phone received, read or played the company's messages.
          body: z.strictObject({
            ack: z.union([z.literal(ACK.delivered), z.literal(ACK.read), z.literal(ACK.played)]),
          }),
          response: { 200: z.object({ updated: z.number() }) },
        },
      },
      async (req) => {
        const connection = await simulatorConnection(req.ctx, req.params.id);
        const updated = await network.acknowledge(
          req.ctx.companyId,
          connection.id,
          req.params.phone,
          req.body.ack,
        );
        return { updated };
      },
    );
  });
