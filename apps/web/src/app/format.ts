/** dd/MM/yyyy from an ISO date or date-time, read as written (no time-zone shift of the day). */
export function formatDate(value: string | null | undefined): string {
  const match = value?.match(/^(\d{4})-(\d{2})-(\d{2})/);
  if (!match) return '';
  const [, year, month, day] = match;
  return `${day}/${month}/${year}`;
}

const brl = new Intl.NumberFormat('pt-BR', {
  style: 'currency',
  currency: 'BRL',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** Money is always shown in BRL with pt-BR formatting (spec administration 9). */
export const formatMoney = (value: number): string => brl.format(value);
