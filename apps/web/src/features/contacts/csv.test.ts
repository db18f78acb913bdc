import { describe, expect, it } from 'vitest';
import { contactsCsv, csvCell } from './csv';

describe('contacts CSV', () => {
  it('quotes only the cells that need it, doubling their quotes', () => {
    expect(csvCell('Ana Souza')).toBe('Ana Souza');
    expect(csvCell('Silva; Filhos')).toBe('"Silva; Filhos"');
    expect(csvCell('Zé "Bigode"')).toBe('"Zé ""Bigode"""');
    expect(csvCell('linha 1\nlinha 2')).toBe('"linha 1\nlinha 2"');
    expect(csvCell('a,b')).toBe('a,b');
    expect(csvCell('')).toBe('');
  });

  it('writes the header and one CRLF line per contact after a byte order mark', () => {
    const text = contactsCsv([
      { name: 'Ana', number: '5511999990001', email: 'ana@x.com' },
      { name: '"; ', number: '5511999990002', email: '' },
    ]);
    expect(text).toBe(
      '\uFEFFname;number;email\r\nAna;5511999990001;ana@x.com\r\n"""; ";5511999990002;\r\n',
    );
  });
});
