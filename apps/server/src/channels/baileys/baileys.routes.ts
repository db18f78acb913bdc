import { connectionsContract } from '@atendi/shared';
import type { Services } from '../../app';
import { contractRoutes } from '../../platform/routes';
import type { BaileysProvider } from './baileys.provider';

/** Pairing by code: the session restarts with the number to pair, and shows the code. */
export const baileysRoutes = (provider: BaileysProvider, { connections }: Services) =>
  contractRoutes((serve) => {
    serve(connectionsContract.pairingCode, async (req) => {
      await provider.setPairingNumber(req.ctx, req.params.id, req.body.phoneNumber);
      return connections.startSession(req.ctx, req.params.id);
    });
  });
