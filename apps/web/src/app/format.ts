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

const two = (value: number) => String(value).padStart(2, '0');

/** dd/MM/yy HH:mm in the browser's time zone (the connections page's last update). */
export function formatShortDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return `${two(date.getDate())}/${two(date.getMonth() + 1)}/${two(date.getFullYear() % 100)} ${two(
    date.getHours(),
  )}:${two(date.getMinutes())}`;
}

/** HH:mm in the browser's time zone. */
export function formatTime(value: string | Date): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return `${two(date.getHours())}:${two(date.getMinutes())}`;
}
