import { expect, test } from '@playwright/test';
import { api, shot, signIn, tokenOf } from '../support';

const ZONE = 'America/Sao_Paulo';
const stamp = String(Date.now()).slice(-6);
const CAMPAIGN = `Fuso ${stamp}`;
const CONTACT = `Fuso Contato ${stamp}`;

// The browser's clock is on UTC while the company's is São Paulo's (UTC-3, no summer time):
// whatever a person types or reads is the company's wall clock.
test.use({ timezoneId: 'UTC' });
test.slow();

/** yyyy-MM-dd, `days` after today on the company's clock. */
function companyDay(days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());
  const date = new Date(`${today}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

const shown = (day: string) => day.split('-').reverse().join('/');

test("time zones: campaigns and schedules are typed and read on the company's clock, and a save without change keeps them", async ({
  page,
}) => {
  await signIn(page);
  const token = await tokenOf(page);
  await api(page.request, token, 'PUT', '/settings/timezone', { value: ZONE });
  await page.reload();

  // A campaign for 02:05 in three days: 05:05 UTC, listed as 02:05.
  const day = companyDay(3);
  await page.goto('/campaigns');
  await page.getByRole('button', { name: 'Nova campanha' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nova campanha' });
  await dialog.getByLabel('Nome').fill(CAMPAIGN);
  await dialog.getByLabel('Agendamento').fill(`${day}T02:05`);
  await dialog.getByLabel('Mensagem 1').fill('Olá {{contactFirstName}}!');
  await dialog.getByRole('button', { name: 'Adicionar' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: CAMPAIGN });
  await expect(row.getByText(`${shown(day)} 02:05`)).toBeVisible();
  await shot(page, 'time-zones-01-campaign-listed');
  const { records } = await api<{ records: { id: number; name: string }[] }>(
    page.request,
    token,
    'GET',
    `/campaigns?searchParam=${encodeURIComponent(CAMPAIGN)}`,
  );
  const id = records.find((record) => record.name === CAMPAIGN)!.id;
  const stored = async () =>
    (await api<{ scheduledAt: string }>(page.request, token, 'GET', `/campaigns/${id}`))
      .scheduledAt;
  expect(await stored()).toBe(`${day}T05:05:00.000Z`);

  // Opened and saved without a change, then opened again: still 02:05, still 05:05 UTC.
  for (const round of [1, 2]) {
    await row.getByRole('button', { name: `Editar ${CAMPAIGN}` }).click();
    const edit = page.getByRole('dialog', { name: 'Editar campanha' });
    await expect(edit.getByLabel('Agendamento')).toHaveValue(`${day}T02:05`);
    if (round === 1) await shot(page, 'time-zones-02-campaign-reopened');
    await edit.getByRole('button', { name: 'Salvar' }).click();
    await expect(edit).toBeHidden();
    await expect(row.getByText(`${shown(day)} 02:05`)).toBeVisible();
    expect(await stored()).toBe(`${day}T05:05:00.000Z`);
  }

  // A schedule for 23:30 tomorrow: 02:30 UTC of the day after, shown as 23:30 on its own day.
  const contact = await api<{ id: number }>(page.request, token, 'POST', '/contacts', {
    name: CONTACT,
    number: `5511977${stamp}`,
  });
  const tomorrow = companyDay(1);
  await page.goto(`/schedules?contactId=${contact.id}`);
  const add = page.getByRole('dialog', { name: 'Novo agendamento' });
  await add.getByRole('textbox', { name: 'Mensagem' }).fill(`Lembrete ${stamp}`);
  await add.getByLabel('Data e hora do envio').fill(`${tomorrow}T23:30`);
  await add.getByRole('button', { name: 'Adicionar' }).click();
  await expect(add).toBeHidden();
  const schedules = async () =>
    (
      await api<{ schedules: { id: number; sendAt: string }[] }>(
        page.request,
        token,
        'GET',
        `/schedules?searchParam=${encodeURIComponent(CONTACT)}`,
      )
    ).schedules;
  const [schedule] = await schedules();
  const dayAfter = new Date(`${tomorrow}T12:00:00Z`);
  dayAfter.setUTCDate(dayAfter.getUTCDate() + 1);
  expect(new Date(schedule!.sendAt).toISOString()).toBe(
    `${dayAfter.toISOString().slice(0, 10)}T02:30:00.000Z`,
  );
  await page.getByRole('button', { name: 'Agenda', exact: true }).click();
  const agendaRow = page.getByRole('row').filter({ hasText: CONTACT });
  await expect(agendaRow).toContainText('23:30');
  await shot(page, 'time-zones-03-schedule-agenda');
  await page.getByRole('button', { name: `Editar agendamento de ${CONTACT}` }).click();
  const pending = page.getByRole('dialog', { name: 'Mensagem Pendente' });
  await expect(pending.getByLabel('Data e hora do envio')).toHaveValue(`${tomorrow}T23:30`);
  await pending.getByRole('button', { name: 'Salvar' }).click();
  await expect(pending).toBeHidden();
  expect((await schedules())[0]!.sendAt).toBe(schedule!.sendAt);

  // On a phone the campaign list reads the same wall clock.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/campaigns');
  await expect(page.getByText(`${shown(day)} 02:05`).first()).toBeVisible();
  await shot(page, 'time-zones-04-campaigns-phone');
});
