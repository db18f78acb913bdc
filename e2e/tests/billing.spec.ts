import { expect, test } from '@playwright/test';
import type { SubscriptionCharge } from '../../packages/shared/src/invoices/invoices.schemas';
import { api, expectAccessible, newCompanyAdmin, shot, signIn, tokenOf } from '../support';

test('billing: a company admin pays its invoice by Pix through the provider and sees the new due date', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  // The super user writes the provider's key; it is answered masked.
  await signIn(page);
  const saved = await api<{ value: string }>(
    request,
    await tokenOf(page),
    'PUT',
    '/settings/asaas',
    {
      value: process.env.E2E_ASAAS_KEY,
    },
  );
  expect(saved.value).not.toContain(process.env.E2E_ASAAS_KEY!);

  // A company signs up (a trial due in 3 days): its invoice is written at once.
  const context = await browser.newContext();
  const admin = await context.newPage();
  await newCompanyAdmin(admin, 'Faturas');
  const adminToken = await tokenOf(admin);
  await expect
    .poll(
      async () => (await api<{ count: number }>(request, adminToken, 'GET', '/invoices/all')).count,
      { timeout: 30_000 },
    )
    .toBe(1);
  await admin.goto('/financeiro');
  const table = admin.getByRole('table', { name: 'Faturas' });
  await expect(table.getByRole('cell', { name: 'Em Aberto' })).toBeVisible({ timeout: 20_000 });
  await expect(table.getByRole('cell', { name: /R\$\s30,00/ })).toBeVisible();
  await shot(admin, 'billing-invoices');

  await table.getByRole('button', { name: /Pagar a fatura/ }).click();
  const dialog = admin.getByRole('dialog', { name: 'Assinatura' });
  await dialog.getByRole('button', { name: 'Próximo' }).click();
  await expect(dialog.getByText('O nome completo é obrigatório')).toBeVisible();
  await expect(dialog.getByText('CEP é obrigatório')).toBeVisible();
  await dialog.getByLabel('Nome completo').fill('Maria Silva');
  await dialog.getByLabel('CPF/CNPJ').fill('123.456.789-09');
  await dialog.getByLabel('CEP').fill('01001-000');
  await dialog.getByLabel('Endereço').fill('Praça da Sé, 1');
  await dialog.getByLabel('Cidade').fill('São Paulo');
  await dialog.getByRole('button', { name: 'Próximo' }).click();
  await expect(dialog.getByText('Plano 1')).toBeVisible();
  await dialog.getByRole('button', { name: 'Próximo' }).click();
  await expect(dialog.getByText(/Total: R\$\s30,00/)).toBeVisible();

  const answered = admin.waitForResponse(
    (response) =>
      response.url().endsWith('/subscription') && response.request().method() === 'POST',
  );
  await dialog.getByRole('button', { name: 'Pagar' }).click();
  const charge = (await (await answered).json()) as SubscriptionCharge;
  await expect(dialog.getByRole('img', { name: 'QR code do Pix' })).toBeVisible();
  await expect(dialog.getByLabel('Pix copia e cola')).toHaveValue(charge.qrcode.qrcode);
  await expect(
    admin.getByText('Assinatura realizada com sucesso! aguardando pagamento'),
  ).toBeVisible();
  await expectAccessible(admin, '[role="dialog"]');
  await shot(admin, 'billing-pix');

  // The customer pays: the provider's sandbox confirms it and calls the webhook.
  const confirmed = await request.post(
    `${process.env.E2E_ASAAS_URL}/sandbox/payment/${charge.chargeId}/confirm`,
    { headers: { access_token: process.env.E2E_ASAAS_KEY! } },
  );
  expect(confirmed.ok()).toBe(true);
  const toast = admin.getByText(
    /Pagamento confirmado! Sua assinatura vence agora em \d{2}\/\d{2}\/\d{4}\./,
  );
  await expect(toast).toBeVisible();
  await shot(admin, 'billing-paid');
  await expect(admin).not.toHaveURL(/\/financeiro$/, { timeout: 10_000 });

  await admin.goto('/financeiro');
  await expect(table.getByRole('cell', { name: 'Pago', exact: true })).toBeVisible({
    timeout: 20_000,
  });
  await expect(table.getByRole('button', { name: 'PAGO', exact: true })).toBeVisible();
  await context.close();
});
