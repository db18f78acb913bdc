import type { Invoice, SubscriptionCharge } from '@atendi/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { i18n } from '../../../app/i18n';
import { SocketContext } from '../../../app/socket';
import { type Call, json, stubFetch } from '../../../test/fetch';
import { companyRecord } from '../../../test/records';
import { renderWithApp, sessionUser } from '../../../test/render';
import { fakeSocket } from '../../../test/socket';
import { FinancialPage } from './FinancialPage';
import { SubscriptionPage } from './SubscriptionPage';

const admin = sessionUser({
  id: 1,
  profile: 'admin',
  company: {
    email: 'cobranca@empresa.com',
    trialExpiration: new Date(Date.now() + 2.5 * 86_400_000).toISOString(),
  },
});
const STAMP = '2025-01-01T00:00:00.000Z';
const invoice = (id: number, dueDate: string, extra: Partial<Invoice> = {}): Invoice => ({
  id,
  companyId: 1,
  detail: 'Plano 1',
  value: 1234.5,
  dueDate,
  status: 'open',
  paidAt: null,
  createdAt: STAMP,
  updatedAt: STAMP,
  ...extra,
});
const charge: SubscriptionCharge = {
  invoiceId: 3,
  chargeId: 'pay_123',
  qrcode: {
    qrcode: '00020101021226820014br.gov.bcb.pix-copia-e-cola',
    imagemQrcode: 'data:image/png;base64,iVBORw0KGgo=',
  },
  valor: { original: '1234.50' },
  expiresAt: null,
};

function serve(extra?: (call: Call) => Response | Promise<Response> | undefined) {
  return stubFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    const { pathname } = call.url;
    if (pathname === '/auth/me') return json(200, admin);
    if (pathname === '/invoices') {
      return json(200, {
        invoices: [
          invoice(3, '2099-02-10'),
          invoice(2, '2020-01-10'),
          invoice(1, '2019-12-10', { status: 'paid', paidAt: STAMP }),
        ],
        count: 3,
        hasMore: false,
      });
    }
    if (pathname === '/subscription') return json(200, charge);
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
}

function renderAt(route: string, socket?: ReturnType<typeof fakeSocket>['socket']) {
  return renderWithApp(
    <SocketContext.Provider value={socket ?? null}>
      <RequireSession>
        <Routes>
          <Route path="/" element={<p>Página inicial</p>} />
          <Route path="/financeiro" element={<FinancialPage />} />
          <Route path="/subscription" element={<SubscriptionPage />} />
        </Routes>
      </RequireSession>
    </SocketContext.Provider>,
    { route },
  );
}

const rowOf = async (id: number) => {
  const table = await screen.findByRole('table', { name: 'Faturas' });
  const cell = await within(table).findByRole('cell', { name: String(id) });
  return cell.closest('tr')!;
};

/** Fills step 0 and walks to the review. */
async function walkToReview() {
  const dialog = await screen.findByRole('dialog', { name: 'Assinatura' });
  const field = (label: RegExp) => within(dialog).getByLabelText(label);
  fireEvent.change(field(/Nome completo/), { target: { value: 'Maria Silva' } });
  fireEvent.change(field(/CPF\/CNPJ/), { target: { value: '123.456.789-09' } });
  fireEvent.change(field(/CEP/), { target: { value: '01001-000' } });
  fireEvent.change(field(/Endereço/), { target: { value: 'Rua A, 1' } });
  fireEvent.change(field(/Cidade/), { target: { value: 'São Paulo' } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Próximo' }));
  expect(await within(dialog).findByText('Plano 1')).toBeTruthy();
  fireEvent.click(within(dialog).getByRole('button', { name: 'Próximo' }));
  expect(await within(dialog).findByText(/Total: R\$\s1\.234,50/)).toBeTruthy();
  return dialog;
}

beforeAll(async () => {
  await i18n.loadNamespaces(['financial']);
});
beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('FinancialPage', () => {
  it('lists the invoices: value in BRL, due date, Pago / Vencido (tinted) / Em Aberto', async () => {
    serve();
    renderAt('/financeiro');
    const open = await rowOf(3);
    expect(within(open).getByText(/^R\$\s1\.234,50$/)).toBeTruthy();
    expect(within(open).getByText('10/02/2099')).toBeTruthy();
    expect(within(open).getByText('Em Aberto')).toBeTruthy();
    expect(within(open).getByRole('button', { name: 'Pagar a fatura 3' })).toBeTruthy();

    const overdue = await rowOf(2);
    expect(within(overdue).getByText('Vencido')).toBeTruthy();
    expect(getComputedStyle(overdue).backgroundColor).not.toBe(
      getComputedStyle(open).backgroundColor,
    );

    const paid = await rowOf(1);
    expect(within(paid).getByText('Pago')).toBeTruthy();
    // Inert: PAGO opens nothing.
    fireEvent.click(within(paid).getByRole('button', { name: 'PAGO' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("shows the super user every company's invoices, each with its company, paying only its own", async () => {
    const superUser = sessionUser({ id: 1, profile: 'admin', super: true });
    const asked: string[] = [];
    serve((call) => {
      if (call.url.pathname === '/auth/me') return json(200, superUser);
      if (call.url.pathname !== '/invoices') return undefined;
      asked.push(call.url.searchParams.get('companies') ?? '');
      return json(200, {
        invoices: [
          invoice(7, '2099-03-10', { companyId: 2, companyName: 'Loja do Zé' }),
          invoice(3, '2099-02-10', { companyName: 'Plataforma' }),
        ],
        count: 2,
        hasMore: false,
      });
    });
    renderAt('/financeiro');
    const other = await rowOf(7);
    expect(within(other).getByText('Loja do Zé')).toBeTruthy();
    expect(within(other).getByText('Em Aberto')).toBeTruthy();
    expect(within(other).queryByRole('button')).toBeNull();
    const own = await rowOf(3);
    expect(within(own).getByText('Plataforma')).toBeTruthy();
    expect(within(own).getByRole('button', { name: 'Pagar a fatura 3' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Empresa' })).toBeTruthy();
    expect(asked).toEqual(['all']);
  });

  it('asks for the checkout data with the spec messages before going on', async () => {
    serve();
    renderAt('/financeiro');
    fireEvent.click(within(await rowOf(3)).getByRole('button', { name: 'Pagar a fatura 3' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assinatura' });
    for (const step of ['Dados', 'Personalizar', 'Revisar']) {
      expect(within(dialog).getByText(step)).toBeTruthy();
    }
    fireEvent.click(within(dialog).getByRole('button', { name: 'Próximo' }));
    expect(await within(dialog).findByText('O nome completo é obrigatório')).toBeTruthy();
    expect(within(dialog).getByText('CEP é obrigatório')).toBeTruthy();
    expect(within(dialog).getByText('O endereço é obrigatório')).toBeTruthy();
    expect(within(dialog).getByText('A cidade é obrigatória')).toBeTruthy();
    expect(within(dialog).getByText('Informe um CPF ou CNPJ válido')).toBeTruthy();
    // Still on the first step.
    expect(within(dialog).getByLabelText(/Nome completo/)).toBeTruthy();
    // The countries offered.
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: /País/ }));
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['BR', 'usa']);
  });

  it('pays through Pix: the charge, its QR code, the copied indicator, then the paid toast and /', async () => {
    const calls = serve();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { socket, serverEmit } = fakeSocket();
    renderAt('/financeiro', socket);
    fireEvent.click(within(await rowOf(3)).getByRole('button', { name: 'Pagar a fatura 3' }));
    const dialog = await walkToReview();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pagar' }));

    const image = await within(dialog).findByRole('img', { name: 'QR code do Pix' });
    expect(image.getAttribute('src')).toBe(charge.qrcode.imagemQrcode);
    expect((within(dialog).getByLabelText('Pix copia e cola') as HTMLTextAreaElement).value).toBe(
      charge.qrcode.qrcode,
    );
    expect(
      await screen.findByText('Assinatura realizada com sucesso! aguardando pagamento'),
    ).toBeTruthy();
    const sent = calls.find((call) => call.url.pathname === '/subscription');
    expect(sent?.method).toBe('POST');
    expect(sent?.body).toMatchObject({
      invoiceId: 3,
      firstName: 'Maria Silva',
      cpfCnpj: '123.456.789-09',
      zipcode: '01001-000',
      address2: 'Rua A, 1',
      city: 'São Paulo',
      country: 'BR',
    });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Copiar código' }));
    expect(await within(dialog).findByRole('button', { name: 'Copiado!' })).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(charge.qrcode.qrcode);
    // The indicator goes after a second.
    expect(
      await within(dialog).findByRole('button', { name: 'Copiar código' }, { timeout: 3000 }),
    ).toBeTruthy();

    // Another invoice's payment is not this one's.
    serverEmit('company-1-payment', {
      action: 'CONCLUIDA',
      invoiceId: 99,
      company: { id: 1, dueDate: '2099-01-01' },
    });
    expect(screen.queryByText(/Pagamento confirmado/)).toBeNull();
    serverEmit('company-1-payment', {
      action: 'CONCLUIDA',
      invoiceId: 3,
      company: { id: 1, dueDate: '2099-03-10' },
    });
    expect(
      await screen.findByText('Pagamento confirmado! Sua assinatura vence agora em 10/03/2099.'),
    ).toBeTruthy();
    expect(await screen.findByText('Página inicial', {}, { timeout: 8000 })).toBeTruthy();
  }, 20_000);

  it('starts the checkout from the billing name and address the company kept', async () => {
    let kept = companyRecord(1, {
      billingName: 'Maria Silva',
      addressZipCode: '01001-000',
      addressStreet: 'Praça da Sé, 1',
      addressCity: 'São Paulo',
      addressState: 'SP',
    });
    const calls = serve((call) => {
      if (call.url.pathname === '/companies/1' && call.method === 'GET') return json(200, kept);
      if (call.url.pathname === '/subscription') {
        const body = call.body as { firstName: string; address2: string };
        kept = { ...kept, billingName: body.firstName, addressStreet: body.address2 };
      }
      return undefined;
    });
    renderAt('/financeiro');
    fireEvent.click(within(await rowOf(3)).getByRole('button', { name: 'Pagar a fatura 3' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assinatura' });
    const field = (label: RegExp) => within(dialog).getByLabelText(label) as HTMLInputElement;
    await waitFor(() => expect(field(/Nome completo/).value).toBe('Maria Silva'));
    expect(field(/CEP/).value).toBe('01001-000');
    expect(field(/Endereço/).value).toBe('Praça da Sé, 1');
    expect(field(/Cidade/).value).toBe('São Paulo');
    expect(field(/Estado/).value).toBe('SP');
    // The CPF/CNPJ is not kept: it is asked each time.
    expect(field(/CPF\/CNPJ/).value).toBe('');
    fireEvent.change(field(/CPF\/CNPJ/), { target: { value: '123.456.789-09' } });
    fireEvent.change(field(/Endereço/), { target: { value: 'Rua Nova, 20' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Próximo' }));
    expect(await within(dialog).findByText('Plano 1')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Próximo' }));
    expect(await within(dialog).findByText(/Total: R\$\s1\.234,50/)).toBeTruthy();
    expect(within(dialog).getByText(/Praça da Sé|Rua Nova, 20/).textContent).toContain(
      'Rua Nova, 20, São Paulo, SP, 01001-000',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pagar' }));
    expect(await within(dialog).findByRole('img', { name: 'QR code do Pix' })).toBeTruthy();
    expect(calls.find((call) => call.url.pathname === '/subscription')?.body).toMatchObject({
      firstName: 'Maria Silva',
      zipcode: '01001-000',
      address2: 'Rua Nova, 20',
      city: 'São Paulo',
      state: 'SP',
      cpfCnpj: '123.456.789-09',
    });
    // The company is read again after the checkout, so the next one starts from the new street.
    await waitFor(() =>
      expect(calls.filter((call) => call.url.pathname === '/companies/1')).toHaveLength(2),
    );
  });

  it('keeps what was typed when the saved details arrive late', async () => {
    let answer: (value: Response) => void = () => {};
    const late = new Promise<Response>((resolve) => {
      answer = resolve;
    });
    serve((call) => (call.url.pathname === '/companies/1' ? late : undefined));
    renderAt('/financeiro');
    fireEvent.click(within(await rowOf(3)).getByRole('button', { name: 'Pagar a fatura 3' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assinatura' });
    const field = (label: RegExp) => within(dialog).getByLabelText(label) as HTMLInputElement;
    fireEvent.change(field(/Nome completo/), { target: { value: 'Joana Lima' } });
    answer(json(200, companyRecord(1, { billingName: 'Maria Silva', addressCity: 'Recife' })));
    await waitFor(() => expect(field(/Cidade/).value).toBe('Recife'));
    expect(field(/Nome completo/).value).toBe('Joana Lima');
  });

  it('shows the server refusal and stays on the review', async () => {
    serve((call) =>
      call.url.pathname === '/subscription'
        ? json(503, { error: 'ERR_PAYMENT_NOT_CONFIGURED' })
        : undefined,
    );
    renderAt('/financeiro');
    fireEvent.click(within(await rowOf(3)).getByRole('button', { name: 'Pagar a fatura 3' }));
    const dialog = await walkToReview();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pagar' }));
    expect(
      await screen.findByText(
        'O pagamento por Pix ainda não foi configurado. Entre em contato com o Suporte.',
      ),
    ).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Pagar' })).toBeTruthy();
  });
});

describe('SubscriptionPage', () => {
  it("shows the trial's days left and the billing e-mail, and 'Assine Agora!' opens the checkout of the oldest open invoice", async () => {
    serve();
    renderAt('/subscription');
    expect(await screen.findByDisplayValue('3 dias restantes')).toBeTruthy();
    expect(screen.getByDisplayValue('cobranca@empresa.com')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Assine Agora!' }));
    const dialog = await walkToReview();
    expect(within(dialog).getByText(/vencimento 10\/01\/2020/)).toBeTruthy();
  });

  it.each([
    ['2099-12-31', 'Situação', 'Ativa até 31/12/2099'],
    ['2020-01-10', 'Situação', 'Vencida desde 10/01/2020'],
  ])(
    'shows a company out of trial, due %s, as active or expired until its date, never as a trial',
    async (dueDate, label, state) => {
      const company = sessionUser({
        id: 1,
        profile: 'admin',
        super: true,
        company: { email: 'cobranca@empresa.com', dueDate, trialExpiration: null },
      });
      serve((call) => (call.url.pathname === '/auth/me' ? json(200, company) : undefined));
      renderAt('/subscription');
      const field = await screen.findByLabelText(label);
      expect((field as HTMLInputElement).value).toBe(state);
      expect(screen.queryByLabelText('Período de teste')).toBeNull();
      expect(document.body.textContent).not.toMatch(/restante/);
    },
  );
});
