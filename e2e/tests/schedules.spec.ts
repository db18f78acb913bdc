import { expect, test } from '@playwright/test';
import {
  acceptWaiting,
  api,
  expectAccessible,
  pairSimulator,
  phoneWrites,
  shot,
  signIn,
  tokenOf,
} from '../support';

const stamp = String(Date.now());
const PHONE = `55116${stamp.slice(-8)}`;
const CONTACT = `Agenda ${stamp.slice(-4)}`;
const FIRST = `Lembrete da sua consulta ${stamp}`;
const EDITED = `Lembrete: consulta remarcada ${stamp}`;
const DUE = `Olá {{contactFirstName}}, chegou a hora ${stamp}`;

/** Tomorrow at 10:00 on the browser's clock, as a datetime-local input takes it. */
function tomorrowAtTen() {
  const date = new Date();
  date.setDate(date.getDate() + 1);
  const two = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T10:00`;
}

test.slow();

test('schedules: from the conversation to the calendar, edited and deleted; one due now reaches the phone', async ({
  page,
  context,
}) => {
  await signIn(page);
  const token = await tokenOf(page);
  const phone = await context.newPage();
  await pairSimulator(page, phone);
  const log = await phoneWrites(phone, PHONE, CONTACT, `Oi, queria marcar ${stamp}`);
  const { conversation } = await acceptWaiting(page, CONTACT);

  // The conversation's Agendar opens the add dialog preset to its contact.
  await conversation.getByRole('link', { name: 'Agendar' }).click();
  await expect(page).toHaveURL(/\/schedules\?contactId=\d+$/);
  const dialog = page.getByRole('dialog', { name: 'Novo agendamento' });
  await expect(dialog.getByRole('combobox', { name: 'Contato' })).toHaveValue(
    `${CONTACT} - ${PHONE}`,
  );
  await dialog.getByRole('button', { name: 'Adicionar' }).click();
  await expect(dialog.getByText('Mensagem muito curta')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Mensagem' }).fill(FIRST);
  await dialog.getByLabel('Data e hora do envio').fill(tomorrowAtTen());
  await expectAccessible(page, '[role="dialog"]');
  await shot(page, 'schedules-01-dialog');
  await dialog.getByRole('button', { name: 'Adicionar' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Agendamento salvo com sucesso!')).toBeVisible();
  await expect(page).toHaveURL(/\/schedules$/);

  // On the calendar: the agenda of the coming month lists it by its contact.
  await expect(page.getByRole('heading', { name: /^Agendamentos \(\d+\)$/ })).toBeVisible();
  await page.getByRole('button', { name: 'Agenda', exact: true }).click();
  const edit = page.getByRole('button', { name: `Editar agendamento de ${CONTACT}` });
  await expect(edit).toBeVisible();
  await expectAccessible(page);
  await shot(page, 'schedules-02-agenda');
  await page.getByRole('button', { name: 'Mês', exact: true }).click();
  await shot(page, 'schedules-03-month');
  await page.getByRole('button', { name: 'Agenda', exact: true }).click();

  // Edited: the dialog shows it waiting, and keeps the new text.
  await edit.click();
  const pending = page.getByRole('dialog', { name: 'Mensagem Pendente' });
  await expect(pending.getByRole('textbox', { name: 'Mensagem' })).toHaveValue(FIRST);
  await pending.getByRole('textbox', { name: 'Mensagem' }).fill(EDITED);
  await pending.getByRole('button', { name: 'Salvar' }).click();
  await expect(pending).toBeHidden();
  await edit.click();
  await expect(
    page
      .getByRole('dialog', { name: 'Mensagem Pendente' })
      .getByRole('textbox', { name: 'Mensagem' }),
  ).toHaveValue(EDITED);
  await page.getByRole('button', { name: 'Cancelar' }).click();

  // Searched by the contact's name, then deleted after confirmation.
  await page.getByRole('searchbox', { name: 'Pesquisar' }).fill(CONTACT);
  await expect(page.getByRole('heading', { name: 'Agendamentos (1)' })).toBeVisible();
  await page.getByRole('button', { name: `Excluir agendamento de ${CONTACT}` }).click();
  const confirm = page.getByRole('dialog', { name: `Excluir o agendamento de ${CONTACT}?` });
  await confirm.getByRole('button', { name: 'Excluir' }).click();
  await expect(page.getByText('Agendamento excluído com sucesso!')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Agendamentos (0)' })).toBeVisible();
  await expect(edit).toHaveCount(0);

  // One due a few seconds ahead goes out by itself: the phone gets it, the calendar shows it
  // sent (live), read-only.
  const contacts = await api<{ contacts: { id: number }[] }>(
    page.request,
    token,
    'GET',
    `/contacts?searchParam=${PHONE}`,
  );
  const due = await api<{ id: number }>(page.request, token, 'POST', '/schedules', {
    body: DUE,
    contactId: contacts.contacts[0]!.id,
    sendAt: new Date(Date.now() + 3000).toISOString(),
  });
  await expect(page.getByRole('heading', { name: 'Agendamentos (1)' })).toBeVisible();
  const firstName = CONTACT.split(' ')[0];
  await expect(
    log.getByRole('listitem').filter({ hasText: `Olá ${firstName}, chegou a hora ${stamp}` }),
  ).toBeVisible({ timeout: 30_000 });
  // The calendar heard it was sent: opened again, it is read-only.
  await page.getByRole('button', { name: `Editar agendamento de ${CONTACT}` }).click();
  const sent = page.getByRole('dialog', { name: 'Mensagem Enviada' });
  await expect(sent.getByRole('textbox', { name: 'Mensagem' })).toBeDisabled();
  await expect(sent.getByRole('button', { name: 'Salvar' })).toHaveCount(0);
  await shot(page, 'schedules-04-sent');
  await sent.getByRole('button', { name: 'Fechar' }).click();

  // The conversation has it too.
  await page.goto('/tickets');
  await page.getByRole('list', { name: 'Atendendo' }).getByText(CONTACT).click();
  await expect(
    page
      .getByRole('region', { name: `Conversa com ${CONTACT}` })
      .getByRole('list', { name: 'Mensagens' }),
  ).toContainText(`chegou a hora ${stamp}`);

  // A phone: the agenda, the add button and the dialog fit 360 px.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/schedules');
  await expect(
    page.getByRole('button', { name: `Editar agendamento de ${CONTACT}` }),
  ).toBeVisible();
  await shot(page, 'schedules-05-phone');
  await page.getByRole('button', { name: 'Novo agendamento' }).click();
  await expect(page.getByRole('dialog', { name: 'Novo agendamento' })).toBeVisible();
  await shot(page, 'schedules-06-phone-dialog');
  await page.getByRole('button', { name: 'Cancelar' }).click();

  await api(page.request, token, 'DELETE', `/schedules/${due.id}`);
});
