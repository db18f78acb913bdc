import { type ConnectionSession, connectionsContract } from '@atendi/shared';
import type { RequestContext } from '../../platform/auth/context';
import { contractRoutes } from '../../platform/routes';
import type { BaileysProvider } from './baileys.provider';

/** What pairing needs of the connections' rules (channels sit below modules). */
interface SessionStarter {
  startSession(ctx: RequestContext, id: number): Promise<ConnectionSession>;
}

/**
 * Pairing by code, WhatsApp Web's alternative to scanning the QR: the session restarts and shows
 * an 8-character code (status PAIRING) to type on the phone under Linked devices.
 */
export const baileysRoutes = (
  provider: BaileysProvider,
  { connections }: { connections: SessionStarter },
) =>
  contractRoutes((serve) => {
    serve(connectionsContract.pairingCode, async (req) => {
      await provider.setPairingNumber(req.ctx, req.params.id, req.body.phoneNumber);
      return connections.startSession(req.ctx, req.params.id);
    });
  });
