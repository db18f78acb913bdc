import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../../../app/i18n';
import { renderWithApp } from '../../../test/render';
import { messageRow } from '../../tickets/tickets.fixtures';
import { MessageBubble } from './MessageBubble';
import { MessageInput } from './MessageInput';

const CARD =
  'BEGIN:VCARD\nVERSION:3.0\nN:;Joana Lima;;;\nFN:Joana Lima\nTEL;type=CELL;waid=5511912345678:+55 11 91234-5678\nEND:VCARD';
const NAMELESS =
  'BEGIN:VCARD\nVERSION:3.0\nTEL;type=CELL;waid=5511912345678:+5511912345678\nEND:VCARD';

beforeAll(async () => {
  await i18n.loadNamespaces(['messages']);
});

describe('MessageBubble', () => {
  it("draws WhatsApp's marks in a body: the rating menu's options read in italics", () => {
    renderWithApp(
      <MessageBubble
        message={messageRow(1, {
          fromMe: true,
          body: 'Digite de 1 a 3:\n*1* - _Insatisfeito_\n~antigo~ `x`',
        })}
        showAuthor={false}
      />,
    );
    const body = screen.getByText((_text, node) => node?.tagName === 'I');
    expect(body.textContent).toBe('Insatisfeito');
    const bubble = body.closest('p') ?? body.parentElement!;
    expect(bubble.textContent).toBe('Digite de 1 a 3:\n1 - Insatisfeito\nantigo x');
    expect(bubble.querySelector('b')?.textContent).toBe('1');
    expect(bubble.querySelector('s')?.textContent).toBe('antigo');
    expect(bubble.querySelector('code')?.textContent).toBe('x');
  });

  it('shows a location with the place name and coordinates the phone sent, and links its map', () => {
    renderWithApp(
      <MessageBubble
        message={messageRow(1, {
          mediaType: 'locationMessage',
          body: 'https://maps.google.com/maps?q=-23.5505%2C-46.6333&z=17&hl=pt-BR|Praça da Sé',
        })}
        showAuthor={false}
      />,
    );
    const bubble = screen.getByTestId('message');
    expect(within(bubble).getByText('Praça da Sé')).toBeTruthy();
    expect(within(bubble).getByText('-23.550500, -46.633300')).toBeTruthy();
    expect(within(bubble).getByRole('link', { name: 'Ver localização' }).getAttribute('href')).toBe(
      'https://maps.google.com/maps?q=-23.5505%2C-46.6333&z=17&hl=pt-BR',
    );
  });

  it("quotes a contact card by the contact's name or number, never its vCard", () => {
    renderWithApp(
      <div>
        <MessageBubble
          message={messageRow(2, {
            body: 'Este é o contato',
            quotedMsgId: 1,
            quotedMsg: { id: 1, body: CARD, fromMe: false, mediaType: 'vcard' },
          })}
          showAuthor={false}
        />
        <MessageBubble
          message={messageRow(4, {
            body: 'E este',
            quotedMsgId: 3,
            quotedMsg: { id: 3, body: NAMELESS, fromMe: false, mediaType: 'vcard' },
          })}
          showAuthor={false}
        />
      </div>,
    );
    const [named, nameless] = screen.getAllByTestId('quoted-message');
    expect(named!.textContent).toContain('Joana Lima');
    expect(nameless!.textContent).toContain('5511912345678');
    for (const quote of [named!, nameless!]) {
      expect(quote.textContent).not.toMatch(/VCARD|TEL|waid/);
    }
  });
});

describe('MessageInput reply bar', () => {
  it('names the contact card being answered instead of showing its vCard', () => {
    renderWithApp(
      <MessageInput
        ticketId={7}
        disabled={false}
        replyingTo={messageRow(1, { mediaType: 'vcard', body: CARD })}
        onCancelReply={() => {}}
        onSent={() => {}}
      />,
    );
    const bar = screen.getByTestId('replying-to');
    expect(within(bar).getByText(/Joana Lima/)).toBeTruthy();
    expect(bar.textContent).not.toMatch(/VCARD|TEL|waid/);
  });

  it('shows the formatted text of the message being answered', () => {
    renderWithApp(
      <MessageInput
        ticketId={7}
        disabled={false}
        replyingTo={messageRow(1, { body: '*Ana Atendente*:\nSeu pedido saiu' })}
        onCancelReply={() => {}}
        onSent={() => {}}
      />,
    );
    const bar = screen.getByTestId('replying-to');
    expect(bar.querySelector('b')?.textContent).toBe('Ana Atendente');
    expect(bar.textContent).not.toContain('*');
  });
});
