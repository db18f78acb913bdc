import { describe, expect, it } from 'vitest';
import { mergeMessages, type SimulatorMessage } from './api';

const message = (id: number, fields: Partial<SimulatorMessage> = {}): SimulatorMessage => ({
  id,
  direction: 'outbound',
  providerMessageId: `P${id}`,
  kind: 'text',
  body: `text ${id}`,
  mediaUrl: null,
  fileName: null,
  location: null,
  vcard: null,
  quotedProviderMessageId: null,
  ack: 1,
  isEdited: false,
  isDeleted: false,
  delivered: true,
  createdAt: new Date(0).toISOString(),
  ...fields,
});

describe('mergeMessages', () => {
  it('adds new messages in order and replaces known ones', () => {
    const merged = mergeMessages(
      [message(1), message(3)],
      [message(2), message(3, { body: 'edited', isEdited: true })],
    );
    expect(merged.map((item) => [item.id, item.body])).toEqual([
      [1, 'text 1'],
      [2, 'text 2'],
      [3, 'edited'],
    ]);
  });

  it('never moves ticks, delivery or a deletion back when an older state arrives last', () => {
    const current = [
      message(1, { ack: 3 }),
      message(2, { direction: 'inbound', delivered: true }),
      message(3, { isDeleted: true, body: '' }),
    ];
    const late = [
      message(1, { ack: 1 }),
      message(2, { direction: 'inbound', delivered: false }),
      message(3, { body: 'text 3' }),
    ];
    const merged = mergeMessages(current, late);
    expect(merged[0]?.ack).toBe(3);
    expect(merged[1]?.delivered).toBe(true);
    expect(merged[2]).toMatchObject({ isDeleted: true, body: '' });
  });
});
