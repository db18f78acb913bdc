/** The company's currency: plans and invoices are in reais. */
export const CURRENCY = 'BRL';

export interface MoneyNotation {
  /** The locale's decimal mark: ',' in pt-BR and es, '.' in en. */
  decimal: string;
  /** The locale's thousands mark. */
  group: string;
  /** The currency as the locale writes it ('R$', or 'BRL' in es) and on which side. */
  symbol: string;
  symbolAfter: boolean;
}

/** How a locale writes an amount of the currency, read from Intl. */
export function moneyNotation(locale: string): MoneyNotation {
  const parts = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: CURRENCY,
  }).formatToParts(12345.6);
  const part = (type: Intl.NumberFormatPartTypes) => parts.find((p) => p.type === type);
  const symbolAt = parts.findIndex((p) => p.type === 'currency');
  return {
    decimal: part('decimal')?.value ?? '.',
    group: part('group')?.value ?? '',
    symbol: part('currency')?.value ?? CURRENCY,
    symbolAfter: symbolAt > parts.findIndex((p) => p.type === 'integer'),
  };
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * An amount typed in the locale's way ('19,90' or '1.234,56' in pt-BR, '19.90' in en), as a
 * number; undefined when it is not an amount with at most two decimals. A lone thousands mark
 * before one or two final digits ('19.90' in pt-BR) is read as the decimal people meant.
 */
export function parseMoney(text: string, locale: string): number | undefined {
  const { decimal, group, symbol } = moneyNotation(locale);
  let plain = text.replace(new RegExp(`${literal(symbol)}|\\s|\\u00a0`, 'g'), '');
  if (!plain.includes(decimal) && group) {
    const lone = new RegExp(`^(\\d+)${literal(group)}(\\d{1,2})$`).exec(plain);
    if (lone) plain = `${lone[1]}${decimal}${lone[2]}`;
  }
  if (group) plain = plain.replace(new RegExp(`${literal(group)}(?=\\d{3}(\\D|$))`, 'g'), '');
  const [whole, fraction, extra] = plain.split(decimal);
  if (extra !== undefined || !/^\d+$/.test(whole ?? '')) return undefined;
  if (fraction !== undefined && !/^\d{0,2}$/.test(fraction)) return undefined;
  return Number(`${whole}.${fraction || '0'}`);
}

/** An amount as a money field shows it to be edited: the locale's decimal mark, two decimals. */
export function editableMoney(value: number, locale: string): string {
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    useGrouping: false,
  }).format(value);
}
