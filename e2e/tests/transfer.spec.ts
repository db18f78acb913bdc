import { expect, test } from '@playwright/test';
import { api, shot, signIn, tokenOf } from '../support';

const stamp = String(Date.now()).slice(-6);

test('transfer: the user list offers only the members of the chosen queue', async ({
  page,
  request,
}) => {
  await signIn(page);
  const token = await tokenOf(page);
  const queue = (name: string, color: string) =>
    api<{ id: number }>(request, token, 'POST', '/queue', {
      name,
      color,
      greetingMessage: `Bem-vindo à ${name}`,
    });
  const financeiro = await queue(`Financeiro ${stamp}`, `#a1${stamp.slice(-4)}`);
  const cobranca = await queue(`Cobrança ${stamp}`, `#b2${stamp.slice(-4)}`);
  const user = (name: string, queueIds: number[]) =>
    api(request, token, 'POST', '/users', {
      name,
      email: `${name.toLowerCase()}.${stamp}@empresa.com`,
      password: 'segredo1',
      profile: 'user',
      queueIds,
    });
  await user(`Fabio${stamp}`, [financeiro.id]);
  await user(`Carla${stamp}`, [cobranca.id]);
  await user(`Dora${stamp}`, [financeiro.id, cobranca.id]);

  const contact = await api<{ id: number }>(request, token, 'POST', '/contacts', {
    name: `Cliente ${stamp}`,
    number: `55117${stamp}01`,
  });
  const ticket = await api<{ uuid: string }>(request, token, 'POST', '/tickets', {
    contactId: contact.id,
    status: 'open',
  });

  await page.goto(`/tickets/${ticket.uuid}`);
  const conversation = page.getByRole('region', { name: `Conversa com Cliente ${stamp}` });
  await conversation.getByRole('button', { name: 'Mais ações' }).click();
  await page.getByRole('menuitem', { name: 'Transferir' }).click();
  const dialog = page.getByRole('dialog', { name: 'Transferir Ticket' });

  // no queue yet: no one to choose
  const users = dialog.getByRole('combobox', { name: 'Usuário' });
  await expect(users).toHaveAttribute('aria-disabled', 'true');
  await expect(dialog.getByText('Escolha a fila para ver os usuários dela')).toBeVisible();

  await dialog.getByRole('combobox', { name: /Fila/ }).click();
  await page.getByRole('option', { name: `Financeiro ${stamp}` }).click();
  await users.click();
  const options = page.getByRole('listbox').getByRole('option');
  // the queue's members, and the admin, who may keep the ticket
  await expect(options).toHaveText([
    'Nenhum (aguardando)',
    'Admin',
    `Dora${stamp}`,
    `Fabio${stamp}`,
  ]);
  await shot(page, '38-transfer-users-of-queue');

  await page.getByRole('option', { name: `Fabio${stamp}` }).click();
  await dialog.getByRole('button', { name: 'Transferir' }).click();
  await expect(page.getByText('Ticket transferido com sucesso!')).toBeVisible();
  // the ticket went to Fabio: the admin's screen leaves it
  await expect(page).toHaveURL(/\/tickets$/);
});
