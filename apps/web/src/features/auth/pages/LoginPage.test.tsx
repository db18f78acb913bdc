import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { markEndedElsewhere } from '../../../app/session';
import { json, stubFetch } from '../../../test/fetch';
import { renderWithApp, sessionUser } from '../../../test/render';
import { LoginPage } from './LoginPage';

function renderLogin() {
  return renderWithApp(
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route path="/tickets" element={<p>tickets screen</p>} />
    </Routes>,
    { route: '/login' },
  );
}

const fill = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('LoginPage', () => {
  it('says why the session ended after a sign-in elsewhere, reloads included, until the next sign-in', async () => {
    const user = sessionUser({ id: 7, companyId: 3 });
    stubFetch(() =>
      json(200, { token: 'jwt-token', user, dueDateWarning: false, daysToDueDate: null }),
    );
    markEndedElsewhere();
    const said = 'Sua conta foi acessada em outro computador.';
    // the page the session ended on, then the same page after the reload
    renderLogin().unmount();
    const reloaded = renderLogin();
    expect(await screen.findByText(said)).toBeTruthy();
    fill('Email', 'ana@empresa.com');
    fill('Senha', 'secret1');
    fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText('tickets screen')).toBeTruthy();
    reloaded.unmount();
    renderLogin();
    await screen.findByLabelText('Email');
    expect(screen.queryByText(said)).toBeNull();
  });

  it('shows the validation messages, translated, and sends nothing', async () => {
    const calls = stubFetch(() => json(500));
    renderLogin();

    fireEvent.click(await screen.findByRole('button', { name: 'Entrar' }));

    expect(await screen.findAllByText('Obrigatório')).toHaveLength(2);
    expect(calls).toHaveLength(0);

    fill('Email', 'ana@empresa.com');
    fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    await waitFor(() => expect(screen.getAllByText('Obrigatório')).toHaveLength(1));
    expect(screen.getByLabelText('Senha').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('false');
  });

  it('signs in, keeps the session and goes to the tickets, warning of a near due date', async () => {
    const user = sessionUser({ id: 7, companyId: 3 });
    const calls = stubFetch(() =>
      json(200, { token: 'jwt-token', user, dueDateWarning: true, daysToDueDate: 3 }),
    );
    renderLogin();

    await screen.findByLabelText('Email');
    fill('Email', 'ana@empresa.com');
    fill('Senha', 'secret1');
    fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));

    expect(await screen.findByText('tickets screen')).toBeTruthy();
    expect(calls[0]?.method).toBe('POST');
    expect(calls[0]?.url.pathname).toBe('/auth/login');
    expect(calls[0]?.body).toEqual({ email: 'ana@empresa.com', password: 'secret1' });
    expect(localStorage.getItem('token')).toBe(JSON.stringify('jwt-token'));
    expect(localStorage.getItem('companyId')).toBe('3');
    expect(localStorage.getItem('userId')).toBe('7');
    expect(await screen.findByText('Sua assinatura vence em 3 dia(s)')).toBeTruthy();
  });

  it('explains an expired subscription with its date', async () => {
    stubFetch(() => json(401, { error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate: '2024-05-10' }));
    renderLogin();

    await screen.findByLabelText('Email');
    fill('Email', 'ana@empresa.com');
    fill('Senha', 'secret1');
    fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));

    expect(
      await screen.findByText(
        'Opss! Sua assinatura venceu 10/05/2024. Entre em contato com o Suporte para mais informações!',
      ),
    ).toBeTruthy();
    expect(screen.queryByText('tickets screen')).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('shows the translated error of wrong credentials and of too many attempts', async () => {
    let status = 401;
    stubFetch(() =>
      json(status, { error: status === 401 ? 'ERR_INVALID_CREDENTIALS' : 'ERR_TOO_MANY_REQUESTS' }),
    );
    renderLogin();

    await screen.findByLabelText('Email');
    fill('Email', 'ana@empresa.com');
    fill('Senha', 'wrong');
    fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(
      await screen.findByText(
        'Erro de autenticação. Verifique o email e a senha e tente novamente.',
      ),
    ).toBeTruthy();

    status = 429;
    fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(
      await screen.findByText('Muitas tentativas. Aguarde alguns instantes e tente novamente.'),
    ).toBeTruthy();
  });

  it("says how long a lock lasts, from the server's Retry-After", async () => {
    let retryAfter = '900';
    stubFetch(
      () =>
        new Response(JSON.stringify({ error: 'ERR_TOO_MANY_REQUESTS' }), {
          status: 429,
          headers: { 'content-type': 'application/json', 'retry-after': retryAfter },
        }),
    );
    renderLogin();
    await screen.findByLabelText('Email');
    fill('Email', 'ana@empresa.com');
    fill('Senha', 'wrong');
    const attempt = () => fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));

    attempt();
    expect(
      await screen.findByText('Muitas tentativas. Aguarde 15 minutos e tente novamente.'),
    ).toBeTruthy();
    // a part of a minute counts as a whole one: never a shorter wait than the real one
    retryAfter = '61';
    attempt();
    expect(
      await screen.findByText('Muitas tentativas. Aguarde 2 minutos e tente novamente.'),
    ).toBeTruthy();
    retryAfter = '60';
    attempt();
    expect(
      await screen.findByText('Muitas tentativas. Aguarde 1 minuto e tente novamente.'),
    ).toBeTruthy();
    retryAfter = '45';
    attempt();
    expect(
      await screen.findByText('Muitas tentativas. Aguarde 45 segundos e tente novamente.'),
    ).toBeTruthy();
    retryAfter = '1';
    attempt();
    expect(
      await screen.findByText('Muitas tentativas. Aguarde 1 segundo e tente novamente.'),
    ).toBeTruthy();
  });
});
