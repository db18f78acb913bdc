import { describe, expect, it } from 'vitest';
import { editableMoney, moneyNotation, parseMoney } from './money';

describe('money as a language writes it', () => {
  it('reads the decimal comma of pt-BR and es, and the dot of en', () => {
    expect(parseMoney('19,90', 'pt-BR')).toBe(19.9);
    expect(parseMoney('1.234,56', 'pt-BR')).toBe(1234.56);
    expect(parseMoney('R$ 19,9', 'pt-BR')).toBe(19.9);
    expect(parseMoney('19,90', 'es')).toBe(19.9);
    expect(parseMoney('19.90', 'en')).toBe(19.9);
    expect(parseMoney('1,234.50', 'en')).toBe(1234.5);
    expect(parseMoney('20', 'en')).toBe(20);
  });

  it('takes a lone dot before two final digits in pt-BR as the decimal meant', () => {
    expect(parseMoney('19.90', 'pt-BR')).toBe(19.9);
    expect(parseMoney('1.990', 'pt-BR')).toBe(1990);
  });

  it('refuses what is not an amount with at most two decimals', () => {
    for (const text of ['', 'dezenove', '19,999', '1,2,3', '-5', '19.90.1']) {
      expect(parseMoney(text, 'pt-BR'), text).toBeUndefined();
    }
  });

  it('shows an amount to edit and the currency as Intl writes them', () => {
    expect(editableMoney(19.9, 'pt-BR')).toBe('19,90');
    expect(editableMoney(1234.5, 'en')).toBe('1234.50');
    expect(moneyNotation('pt-BR')).toMatchObject({ symbol: 'R$', symbolAfter: false });
    expect(moneyNotation('es')).toMatchObject({ decimal: ',', symbolAfter: true });
  });
});
