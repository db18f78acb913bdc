import { describe, expect, it } from 'vitest';
import { pollCursor, type SimulatorMessage } from './api';

const message = (id: number, fields: Partial<SimulatorMessage>): SimulatorMessage => ({
  id,
  direction: 'inbound',
  providerMessageId: `P${id}`,
  kind: 'text',
  body: '',
  mediaUrl: null,
  fileName: null,
  location: null,
  vcard: null,
  ack: 4,
  isDeleted: false,
  delivered: true,
  createdAt: new Date(0).toISOString(),
  ...fields,
});

describe('pollCursor', () => {
  it('polls again from a phone message the company took but has not read', () => {
    const settled = [message(1, {}), message(2, { direction: 'outbound', ack: 4 })];
    expect(pollCursor(settled)).toBe(2);
    expect(pollCursor([message(1, {}), message(2, { ack: 1 }), message(3, {})])).toBe(1);
    expect(pollCursor([message(1, { delivered: false, ack: 1 }), message(2, {})])).toBe(0);
  });
});
