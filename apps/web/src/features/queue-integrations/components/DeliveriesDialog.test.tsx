import type { IntegrationDelivery } from '@atendi/shared';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../app/i18n';
import { json, stubFetch } from '../../../test/fetch';
import { integrationRecord } from '../../../test/records';
import { renderWithApp } from '../../../test/render';
import { DeliveriesDialog } from './DeliveriesDialog';

const delivery = (id: number, extra: Partial<IntegrationDelivery> = {}): IntegrationDelivery => ({
  id,
  event: 'message.received',
  status: 'failed',
  attempts: 1,
  responseStatus: null,
  errorCode: null,
  lastError: null,
  createdAt: '2025-01-01T10:00:00.000Z',
  updatedAt: '2025-01-01T10:05:00.000Z',
  deliveredAt: null,
  ...extra,
});

function showLog(deliveries: IntegrationDelivery[]) {
  stubFetch(({ url }) => {
    if (url.pathname === '/queueIntegration/1/deliveries') {
      return json(200, { deliveries, hasMore: false });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
  renderWithApp(
    <DeliveriesDialog
      integration={integrationRecord(1, 'CRM', 'webhook')}
      onClose={() => undefined}
    />,
  );
  return screen.findByRole('dialog', { name: 'Entregas de CRM' });
}

/** The delivery's row, found by a text of its own (its detail, its event's name). */
const rowWith = async (log: HTMLElement, text: string) =>
  (await within(log).findByText(text, { exact: false })).closest('tr')!;

beforeAll(() => i18n.loadNamespaces(['queueIntegrations']));
afterEach(() => vi.unstubAllGlobals());

describe('DeliveriesDialog', () => {
  it("words each failure in Portuguese from its code, the network's English kept as the detail", async () => {
    const log = await showLog([
      delivery(1, {
        errorCode: 'ERR_INTEGRATION_UNREACHABLE',
        lastError: 'connect ECONNREFUSED 203.0.113.7:443',
        attempts: 4,
      }),
      delivery(2, {
        errorCode: 'ERR_INTEGRATION_ADDRESS_REFUSED',
        lastError: '127.0.0.1 is a private address',
      }),
      delivery(3, {
        errorCode: 'ERR_INTEGRATION_TIMEOUT',
        lastError: 'ETIMEDOUT after 10000 ms',
        status: 'pending',
      }),
    ]);

    const unreachable = await rowWith(log, 'ECONNREFUSED');
    expect(unreachable.textContent).toContain(
      'Nenhum serviço respondeu na URL. Confira o endereço e se o serviço está no ar.',
    );
    expect(
      within(unreachable).getByText('Detalhe técnico: connect ECONNREFUSED 203.0.113.7:443'),
    ).toBeTruthy();
    expect(within(unreachable).getByText('Falhou')).toBeTruthy();

    const refused = await rowWith(log, 'private address');
    expect(refused.textContent).toContain(
      'Endereço recusado: a URL aponta para uma rede interna ou traz usuário e senha.',
    );

    const timeout = await rowWith(log, 'ETIMEDOUT');
    expect(timeout.textContent).toContain('O serviço demorou demais para responder');
    expect(within(timeout).getByText('Pendente')).toBeTruthy();

    // the event is named for the reader, with the name the receiver gets beside it
    expect(within(unreachable).getByText('Mensagem recebida')).toBeTruthy();
    expect(within(unreachable).getByText('message.received')).toBeTruthy();
  });

  it("says what the receiver's HTTP status means", async () => {
    const log = await showLog([
      delivery(1, {
        errorCode: 'ERR_INTEGRATION_HTTP_STATUS',
        responseStatus: 401,
        lastError: 'HTTP 401',
        event: 'ticket.updated',
      }),
      delivery(2, {
        errorCode: 'ERR_INTEGRATION_HTTP_STATUS',
        responseStatus: 404,
        lastError: 'HTTP 404',
        event: 'message.sent',
      }),
      delivery(3, {
        errorCode: 'ERR_INTEGRATION_HTTP_STATUS',
        responseStatus: 503,
        lastError: 'HTTP 503',
      }),
    ]);
    const unauthorized = await rowWith(log, 'ticket.updated');
    expect(unauthorized.textContent).toContain(
      'O serviço recusou o envio por falta de permissão (HTTP 401). Confira o segredo da assinatura',
    );
    expect(within(unauthorized).getByText('Atendimento atualizado')).toBeTruthy();
    const missing = await rowWith(log, 'message.sent');
    expect(missing.textContent).toContain('O endereço não existe no serviço (HTTP 404).');
    const down = await rowWith(log, 'Detalhe técnico: HTTP 503');
    expect(down.textContent).toContain('O serviço teve um erro interno (HTTP 503).');
  });

  it('shows no error for a delivered event, and a plain failure for one logged without a code', async () => {
    const log = await showLog([
      delivery(1, { status: 'delivered', responseStatus: 200, event: 'message.sent' }),
      delivery(2, { lastError: 'socket hang up', event: 'ticket.updated' }),
    ]);
    const delivered = await rowWith(log, 'message.sent');
    expect(within(delivered).getByText('Entregue')).toBeTruthy();
    expect(delivered.textContent).not.toMatch(/falhou|Detalhe/i);
    const old = await rowWith(log, 'ticket.updated');
    expect(old.textContent).toContain('A entrega falhou.');
    expect(within(old).getByText('Detalhe técnico: socket hang up')).toBeTruthy();
  });

  it('tells an empty log', async () => {
    const log = await showLog([]);
    expect(await within(log).findByText('Nenhuma entrega ainda')).toBeTruthy();
  });
});
