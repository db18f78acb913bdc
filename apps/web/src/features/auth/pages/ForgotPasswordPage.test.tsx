import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { i18n } from '../../../app/i18n';
import { json, stubFetch } from '../../../test/fetch';
import { renderWithApp } from '../../../test/render';
import { ForgotPasswordPage } from './ForgotPasswordPage';

beforeAll(async () => {
  await i18n.loadNamespaces(['auth', 'backendErrors']);
});
afterEach(() => vi.unstubAllGlobals());

const renderPage = () =>
  renderWithApp(
    <Routes>
      <Route path="/forgetpsw" element={<ForgotPasswordPage />} />
      <Route path="/login" element={<p>login page</p>} />
    </Routes>,
    { route: '/forgetpsw' },
  );

it('asks for the e-mail, then the code and a strong password twice, sent in the body', async () => {
  const calls = stubFetch((call) => {
    if (call.url.pathname === '/forgetpassword') {
      return (call.body as { email: string }).email === 'ana@empresa.com'
        ? json(200, { message: 'Email enviado com sucesso!' })
        : json(404, { error: 'ERR_EMAIL_NOT_FOUND' });
    }
    if (call.url.pathname === '/resetpasswords') {
      return json(200, { message: 'Senha redefinida com sucesso.' });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
  renderPage();
  const email = await screen.findByLabelText('Email', {}, { timeout: 5000 });
  fireEvent.click(screen.getByRole('button', { name: 'Enviar código' }));
  expect(await screen.findByText('Obrigatório')).toBeTruthy();
  fireEvent.change(email, { target: { value: 'outra@empresa.com' } });
  fireEvent.click(screen.getByRole('button', { name: 'Enviar código' }));
  expect(await screen.findByText('Email não encontrado', {}, { timeout: 5000 })).toBeTruthy();

  fireEvent.change(email, { target: { value: 'ana@empresa.com' } });
  fireEvent.click(screen.getByRole('button', { name: 'Enviar código' }));
  const code = await screen.findByLabelText('Código', {}, { timeout: 10_000 });
  expect(await screen.findByText('Email enviado com sucesso!', {}, { timeout: 5000 })).toBeTruthy();

  fireEvent.change(code, { target: { value: '123456' } });
  fireEvent.change(screen.getByLabelText('Nova senha'), { target: { value: 'fraca' } });
  fireEvent.change(screen.getByLabelText('Confirme a senha'), { target: { value: 'outra' } });
  fireEvent.click(screen.getByRole('button', { name: 'Redefinir senha' }));
  expect(
    await screen.findByText(
      'Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.',
    ),
  ).toBeTruthy();
  expect(screen.getByText('As senhas não correspondem')).toBeTruthy();
  expect(calls.some((call) => call.url.pathname === '/resetpasswords')).toBe(false);

  fireEvent.change(screen.getByLabelText('Nova senha'), { target: { value: 'NovaSenha1' } });
  fireEvent.change(screen.getByLabelText('Confirme a senha'), { target: { value: 'NovaSenha1' } });
  fireEvent.click(screen.getByRole('button', { name: 'Redefinir senha' }));
  expect(await screen.findByText('login page', {}, { timeout: 5000 })).toBeTruthy();
  await waitFor(() => expect(screen.getByText('Senha redefinida com sucesso.')).toBeTruthy());
  const reset = calls.find((call) => call.url.pathname === '/resetpasswords')!;
  expect(reset.method).toBe('POST');
  expect(reset.body).toEqual({
    email: 'ana@empresa.com',
    token: '123456',
    newPassword: 'NovaSenha1',
  });
});
