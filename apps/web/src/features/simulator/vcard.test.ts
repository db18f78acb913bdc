import { describe, expect, it } from 'vitest';
import { buildVcard, parseVcard } from './vcard';

describe('vCard', () => {
  it('writes the number as WhatsApp does, with waid', () => {
    const card = buildVcard(' Maria; da Silva ', '+55 (11) 98765-4321');
    expect(card).toBe(
      [
        'BEGIN:VCARD',
        'VERSION:3.0',
        'N:;Maria\\; da Silva;;;',
        'FN:Maria\\; da Silva',
        'TEL;type=CELL;type=VOICE;waid=5511987654321:+5511987654321',
        'END:VCARD',
      ].join('\n'),
    );
  });

  it('reads back the name and numbers', () => {
    expect(parseVcard(buildVcard('Ana, Souza', '5511912345678'))).toEqual({
      name: 'Ana, Souza',
      numbers: ['5511912345678'],
    });
    const foreign =
      'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:João\r\nitem1.TEL:+55 21 3333-4444\r\nEND:VCARD';
    expect(parseVcard(foreign)).toEqual({ name: 'João', numbers: ['+552133334444'] });
  });
});
