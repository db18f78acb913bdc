import { beforeAll, expect, it } from 'vitest';
import { ApiError } from './api';
import { errorMessage } from './errors';
import { i18n } from './i18n';

beforeAll(async () => {
  await i18n.loadNamespaces(['backendErrors']);
});

it('names the limit and the rows of a refused import, written the language’s way', async () => {
  const refused = new ApiError(413, {
    error: 'ERR_IMPORT_TOO_MANY_ROWS',
    limit: 100_000,
    rows: 2_000_000,
  });
  await i18n.changeLanguage('pt');
  expect(errorMessage(refused)).toBe(
    'A planilha tem 2.000.000 linhas; o limite é 100.000. Divida-a em arquivos menores.',
  );
  await i18n.changeLanguage('en');
  expect(errorMessage(refused)).toBe(
    'The sheet has 2,000,000 rows; the limit is 100,000. Split it into smaller files.',
  );
  await i18n.changeLanguage('pt');
});
