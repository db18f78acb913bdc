import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Call, json, stubFetch } from '../../../test/fetch';
import { companyRecord } from '../../../test/records';
import { renderWithApp } from '../../../test/render';
import { SignupPage } from './SignupPage';

const plan = {
  id: 4,
  name: 'Básico',
  users: 5,
  connections: 2,
  queues: 3,
  value: 1234.5,
  useCampaigns: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: false,
  useKanban: true,
  useOpenAi: false,
  useIntegrations: false,
};

function renderSignup(onCadastro: (call: Call) => Response, route = '/signup?companyId=9') {
  const calls = stubFetch((call) =>
    call.url.pathname === '/plans/list' ? json(200, [plan]) : onCadastro(call),
  );
  renderWithApp(
    <Routes>
      <Route path="/signup" element={<SignupPage />} />
      <Route path="/login" element={<p>login screen</p>} />
    </Routes>,
    { route },
  );
  return calls;
}

const fill = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

async function fillForm() {
  await screen.findByLabelText('Nome da empresa');
  fill('Nome da empresa', 'Loja da Ana');
  fill('Email', 'ana@loja.com');
  fill('Telefone com DDD', '11987654321');
  fill('Senha', 'secret1');
  fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Plano' }));
  const listbox = await screen.findByRole('listbox');
  fireEvent.click(
    within(listbox).getByRole('option', {
      name: /Básico - Atendentes: 5 - WhatsApp: 2 - Filas: 3 - R\$\s1\.234,50/,
    }),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SignupPage', () => {
  it('masks the phone while typing', async () => {
    renderSignup(() => json(500));
    await screen.findByLabelText('Telefone com DDD');
    fill('Telefone com DDD', '1198765');
    expect((screen.getByLabelText('Telefone com DDD') as HTMLInputElement).value).toBe(
      '(11) 98765',
    );
    fill('Telefone com DDD', '(11) 98765-43219999');
    expect((screen.getByLabelText('Telefone com DDD') as HTMLInputElement).value).toBe(
      '(11) 98765-4321',
    );
  });

  it('asks for every field, the plan included', async () => {
    const calls = renderSignup(() => json(500));
    fireEvent.click(await screen.findByRole('button', { name: 'Cadastrar' }));
    expect(await screen.findAllByText('Obrigatório')).toHaveLength(3);
    expect(screen.getAllByText('Muito curto!')).toHaveLength(2);
    expect(calls.filter((call) => call.url.pathname === '/companies/cadastro')).toHaveLength(0);
  });

  it('sends the trial sign-up and goes to the login', async () => {
    const before = Date.now();
    const calls = renderSignup(() => json(201, companyRecord(12)));
    await fillForm();
    fireEvent.click(screen.getByRole('button', { name: 'Cadastrar' }));

    expect(await screen.findByText('login screen')).toBeTruthy();
    const sent = calls.find((call) => call.url.pathname === '/companies/cadastro');
    expect(sent?.method).toBe('POST');
    const body = sent?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      name: 'Loja da Ana',
      email: 'ana@loja.com',
      phone: '11987654321',
      password: 'secret1',
      planId: 4,
      recurrence: 'MENSAL',
      status: 't',
      campaignsEnabled: true,
      // the link's companyId goes along as the referrer
      companyId: 9,
    });
    const due = Date.parse(body.dueDate as string);
    expect(due - before).toBeGreaterThanOrEqual(3 * 86_400_000 - 1000);
    expect(due - before).toBeLessThan(3 * 86_400_000 + 60_000);
  });

  it('sends no companyId when the link has none or one that is no id', async () => {
    for (const route of ['/signup', '/signup?companyId=abc', '/signup?companyId=0']) {
      const calls = renderSignup(() => json(201, companyRecord(12)), route);
      await fillForm();
      fireEvent.click(screen.getByRole('button', { name: 'Cadastrar' }));
      expect(await screen.findByText('login screen')).toBeTruthy();
      const sent = calls.find((call) => call.url.pathname === '/companies/cadastro');
      expect(sent?.body).not.toHaveProperty('companyId');
      cleanup();
      vi.unstubAllGlobals();
    }
  });

  it('puts the server field errors and a duplicated email on the form', async () => {
    let answer = json(400, {
      error: 'ERR_VALIDATION',
      fields: [{ path: 'phone', message: 'Too Short!' }],
    });
    renderSignup(() => answer);
    await fillForm();
    fireEvent.click(screen.getByRole('button', { name: 'Cadastrar' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Telefone com DDD').getAttribute('aria-invalid')).toBe('true'),
    );
    expect(screen.getByText('Muito curto!')).toBeTruthy();

    answer = json(409, { error: 'ERR_DUPLICATED_EMAIL' });
    fireEvent.click(screen.getByRole('button', { name: 'Cadastrar' }));
    expect(await screen.findAllByText('Este email já está em uso.')).not.toHaveLength(0);
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
  });
});
