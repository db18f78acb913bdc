import type { ChannelSink } from '../../channels/manager';
import type {
  AckUpdate,
  ConnectionRef,
  InboundChange,
  InboundMessage,
  StatusUpdate,
} from '../../channels/provider';
import type { ChannelSessions } from '../../channels/sessions';
import type { ConnectionsService } from '../connections/connections.service';
import type { DeferredCommands } from './messages.deferred';
import type { InboundPipeline } from './messages.inbound';
import type { OutboundSender } from './messages.outbound';

/**
 * Where the channels hand what providers report: the seam between the networks and the inbox.
 * Messages, edits and ticks are stored by the inbound pipeline, statuses by the connections'
 * rules, and a connection that comes up sends what waited for it.
 */
export class MessagePipeline implements ChannelSink {
  constructor(
    private readonly deps: {
      inbound: Pick<InboundPipeline, 'receive' | 'change' | 'ack'>;
      connections: Pick<ConnectionsService, 'applyStatus'>;
      outbound: Pick<OutboundSender, 'deliver' | 'flushPending'>;
      deferred: Pick<DeferredCommands, 'run' | 'flush'>;
      channels: Pick<ChannelSessions, 'track'>;
    },
  ) {}

  inbound(ref: ConnectionRef, message: InboundMessage) {
    return this.deps.inbound.receive(ref, message);
  }

  change(ref: ConnectionRef, change: InboundChange) {
    return this.deps.inbound.change(ref, change);
  }

  ack(ref: ConnectionRef, update: AckUpdate) {
    return this.deps.inbound.ack(ref, update);
  }

  /**
   * On CONNECTED the messages stored while the connection was down are sent, and the commands
   * kept for it carried out, in the background.
   */
  async status(ref: ConnectionRef, update: StatusUpdate, epoch?: number) {
    await this.deps.connections.applyStatus(ref, update, epoch);
    if (update.status === 'CONNECTED') {
      this.deps.channels.track(this.deps.outbound.flushPending(ref.companyId, ref.id));
      this.deps.channels.track(this.deps.deferred.flush(ref.companyId, ref.id));
    }
  }

  /** A stored message this instance's session must send (a command from any instance). */
  async sendStored(companyId: number, messageId: number) {
    // A failure is kept on the message (ack 0, or unknown) for a person to retry.
    await this.deps.outbound.deliver(companyId, messageId).catch(() => {});
  }

  /** A kept command this instance's session must carry out (a failure keeps it for later). */
  runDeferred(companyId: number, commandId: number) {
    return this.deps.deferred.run(companyId, commandId);
  }
}
