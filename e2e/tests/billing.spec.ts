import { expect, test } from '@playwright/test';
import type { SubscriptionCharge } from '../../packages/shared/src/invoices/invoices.schemas';
import { api, asaas, expectAccessible, newCompanyAdmin, shot, signIn, tokenOf } from '../support';

test('billing: a company admin pays its invoice by Pix through the provider and sees the new due date', async ({
  page,
  browser,
  request,
}) => {
  // Two walks through the checkout (the second starts from the kept details).
  test.setTimeout(240_000);
  // The super user writes the provider's key on the settings page; it is shown masked after.
  const { key } = asaas();
  await signIn(page);
  await page.goto('/settings');
  const keyField = page.getByLabel('Chave da API do Asaas');
  await keyField.fill(key);
  await page.getByRole('button', { name: 'Salvar chave' }).click();
  await expect(page.getByText(`Chave salva: ********${key.slice(-4)}`)).toBeVisible();
  await expect(keyField).toHaveValue('');
  await shot(page, 'billing-settings-key');
  const listed = await api<{ key: string; value: string }[]>(
    request,
    await tokenOf(page),
    'GET',
    '/settings',
  );
  expect(listed.find((setting) => setting.key === 'asaas')?.value).toBe(`********${key.slice(-4)}`);
  expect(JSON.stringify(listed)).not.toContain(key);

  // A company signs up (a trial due in 3 days): its invoice is written at once.
  const context = await browser.newContext();
  const admin = await context.newPage();
  await newCompanyAdmin(admin, 'Faturas');
  const adminToken = await tokenOf(admin);
  await expect
    .poll(
      async () => (await api<{ count: number }>(request, adminToken, 'GET', '/invoices')).count,
      { timeout: 30_000 },
    )
    .toBe(1);
  await admin.goto('/financeiro');
  const table = admin.getByRole('table', { name: 'Faturas' });
  await expect(table.getByRole('cell', { name: 'Em Aberto' })).toBeVisible({ timeout: 20_000 });
  await expect(table.getByRole('cell', { name: /R\$\s30,00/ })).toBeVisible();
  await shot(admin, 'billing-invoices');

  const { companyId } = await api<{ companyId: number }>(request, adminToken, 'GET', '/auth/me');
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
  await dialog.getByLabel('Estado').fill('SP');
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

  // The company keeps the name and address of the checkout...
  const company = await api<Record<string, unknown>>(
    request,
    adminToken,
    'GET',
    `/companies/${companyId}`,
  );
  expect(company).toMatchObject({
    billingName: 'Maria Silva',
    addressZipCode: '01001-000',
    addressStreet: 'Praça da Sé, 1',
    addressCity: 'São Paulo',
    addressState: 'SP',
  });
  // ...and the next checkout starts from them (the same charge is shown again).
  await dialog.getByRole('button', { name: 'Fechar' }).click();
  await expect(dialog).toBeHidden();
  await table.getByRole('button', { name: /Pagar a fatura/ }).click();
  await expect(dialog.getByLabel('Nome completo')).toHaveValue('Maria Silva');
  await expect(dialog.getByLabel('CEP')).toHaveValue('01001-000');
  await expect(dialog.getByLabel('Endereço')).toHaveValue('Praça da Sé, 1');
  await expect(dialog.getByLabel('Cidade')).toHaveValue('São Paulo');
  await expect(dialog.getByLabel('Estado')).toHaveValue('SP');
  await shot(admin, 'billing-prefilled');
  await dialog.getByLabel('CPF/CNPJ').fill('123.456.789-09');
  await dialog.getByRole('button', { name: 'Próximo' }).click();
  await dialog.getByRole('button', { name: 'Próximo' }).click();
  const again = admin.waitForResponse(
    (response) =>
      response.url().endsWith('/subscription') && response.request().method() === 'POST',
  );
  await dialog.getByRole('button', { name: 'Pagar' }).click();
  expect(((await (await again).json()) as SubscriptionCharge).chargeId).toBe(charge.chargeId);
  await expect(dialog.getByLabel('Pix copia e cola')).toHaveValue(charge.qrcode.qrcode);

  // The customer pays: the provider's sandbox confirms it and calls the webhook.
  const confirmed = await request.post(
    `${asaas().url}/sandbox/payment/${charge.chargeId}/confirm`,
    { headers: { access_token: key } },
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
