import { describe, expect, it } from 'vitest';
import { isVcard, readVcard, writeVcard } from './vcard';

describe('writeVcard', () => {
  it('writes a number as WhatsApp does, with waid, and escapes the name', () => {
    const card = writeVcard({
      name: ' Maria; da Silva ',
      phones: [{ number: '+5511987654321', waid: '5511987654321' }],
    });
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

  it('writes every part a shared contact has: names, company, phones, e-mails', () => {
    const card = writeVcard({
      name: 'Ana Souza',
      firstName: 'Ana',
      lastName: 'Souza',
      org: 'Padaria, Pão & Cia',
      phones: [
        { number: '+55 11 98765-4321', waid: '5511987654321', type: 'CELL' },
        { number: '+55 11 3456-7890', type: 'WORK' },
      ],
      emails: ['ana@example.com', ' '],
    });
    expect(card.split('\n')).toEqual([
      'BEGIN:VCARD',
      'VERSION:3.0',
      'N:Souza;Ana;;;',
      'FN:Ana Souza',
      'ORG:Padaria\\, Pão & Cia',
      'TEL;type=CELL;type=VOICE;waid=5511987654321:+55 11 98765-4321',
      'TEL;type=WORK;type=VOICE:+55 11 3456-7890',
      'EMAIL:ana@example.com',
      'END:VCARD',
    ]);
  });

  it('keeps what a sender typed out of the structure', () => {
    const card = writeVcard({
      name: 'Eve\nTEL:+1999',
      phones: [{ number: '1\nEND:VCARD', waid: '55x11', type: 'CELL:evil' }],
    });
    expect(card.split('\n')).toHaveLength(6);
    expect(readVcard(card)).toEqual({ name: 'Eve TEL:+1999', numbers: ['5511'] });
  });
});

describe('readVcard', () => {
  it('reads back the name and numbers of a card it wrote', () => {
    const card = writeVcard({ name: 'Ana, Souza', phones: [{ waid: '5511912345678' }] });
    expect(readVcard(card)).toEqual({ name: 'Ana, Souza', numbers: ['5511912345678'] });
  });

  it("reads other phones' cards: CRLF, folded lines, grouped TEL, no waid", () => {
    const foreign =
      'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:João d\r\n a Silva\r\nitem1.TEL;type=pref:+55 21 3333-4444\r\nitem1.X-ABLabel:Casa\r\nEND:VCARD';
    expect(readVcard(foreign)).toEqual({ name: 'João da Silva', numbers: ['+552133334444'] });
    const waid =
      'BEGIN:VCARD\nFN;CHARSET=UTF-8:Zé\nTEL;TYPE=CELL;WAID=5511911112222:+55 11 91111-2222\nEND:VCARD';
    expect(readVcard(waid)).toEqual({ name: 'Zé', numbers: ['5511911112222'] });
  });

  it('reads the first of several cards sent together', () => {
    const two = [
      writeVcard({ name: 'Primeira', phones: [{ waid: '5511900000001' }] }),
      writeVcard({ name: 'Segunda', phones: [{ waid: '5511900000002' }] }),
    ].join('\n');
    expect(readVcard(two)).toEqual({ name: 'Primeira', numbers: ['5511900000001'] });
  });

  it("takes a body that is not a card as the card's display name", () => {
    expect(isVcard('Maria Souza')).toBe(false);
    expect(readVcard('  Maria Souza ')).toEqual({ name: 'Maria Souza', numbers: [] });
    expect(readVcard('BEGIN:VCARD\nVERSION:3.0\nEND:VCARD')).toEqual({ name: '', numbers: [] });
  });
});
