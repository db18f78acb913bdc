import { Readable } from 'node:stream';
import { ACK, simulatorContract as simulator } from '@atendi/shared';
import { and, eq } from 'drizzle-orm';
import { connections } from '../../db/schema';
import { tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import { contractRoutes } from '../../platform/routes';
import type { Storage } from '../../platform/storage';
import { sentFileNameOf } from '../../platform/uploads';
import { inboundId, type SimulatorNetwork, type SimulatorRow } from './simulator.network';
import { presentSimulatorMessage } from './simulator.present';

/**
 * The simulator page's API: a person plays the contacts of the company's simulator
 * connections. Everything here is scoped to the caller's company.
 */
export const simulatorRoutes = (network: SimulatorNetwork, storage: Storage) =>
  contractRoutes((serve) => {
    async function simulatorConnection(ctx: RequestContext, id: number) {
      const [row] = await tenantDb(ctx)
        .select({ id: connections.id, status: connections.status, qrcode: connections.qrcode })
        .from(connections, and(eq(connections.id, id), eq(connections.provider, 'simulator')));
      if (!row) throw new AppError('ERR_NO_WAPP_FOUND', 404);
      return row;
    }

    const present = (row: SimulatorRow) => presentSimulatorMessage(row, storage);
    /** What the simulator page polls: a log line each time would bury the rest. */
    const POLLED = { quiet: 'always' } as const;

    serve(
      simulator.connections,
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
      POLLED,
    );

    serve(simulator.scan, async (req) => {
      const connection = await simulatorConnection(req.ctx, req.params.id);
      if (!connection.qrcode || connection.qrcode !== req.body.qrcode) {
        throw new AppError('ERR_VALIDATION', 400, {
          fields: [{ path: 'body.qrcode', message: 'QR code expired or unknown' }],
        });
      }
      await network.setPaired(req.ctx.companyId, connection.id, true);
    });

    serve(simulator.disconnect, async (req) => {
      const connection = await simulatorConnection(req.ctx, req.params.id);
      await network.setPaired(req.ctx.companyId, connection.id, false);
    });

    serve(
      simulator.phones,
      async (req) => {
        const connection = await simulatorConnection(req.ctx, req.params.id);
        const rows = await network.phones(req.ctx.companyId, connection.id);
        return rows.map(({ phone, name }) => ({ phone, name }));
      },
      POLLED,
    );

    // A phone added on the page before it writes: kept, so it is still listed after a reload.
    serve(simulator.addPhone, async (req) => {
      const connection = await simulatorConnection(req.ctx, req.params.id);
      const { phone, name } = req.body;
      await network.addPhone(req.ctx.companyId, connection.id, phone, name);
      return { phone, name };
    });

    serve(
      simulator.messages,
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
      POLLED,
    );

    serve(
      simulator.send,
      async (req) => {
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
            // The simulated phone stands for WhatsApp, which keeps a document's name as sent.
            fileName: file ? sentFileNameOf(file.name) : null,
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
        return present(row!);
      },
      { bodyLimit: 30 * 1024 * 1024 },
    );

    // The phone edits one of its messages (text, or a caption), as WhatsApp allows.
    serve(simulator.edit, async (req) => {
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
    });

    // The phone deletes one of its messages for everyone.
    serve(simulator.remove, async (req) => {
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
    });

    serve(simulator.read, async (req) => {
      const connection = await simulatorConnection(req.ctx, req.params.id);
      const updated = await network.acknowledge(
        req.ctx.companyId,
        connection.id,
        req.params.phone,
        req.body.ack,
      );
      return { updated };
    });
  });
