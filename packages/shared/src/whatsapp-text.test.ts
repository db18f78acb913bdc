import { describe, expect, it } from 'vitest';
import {
  parseWhatsappText,
  plainWhatsappText,
  type WhatsappNode,
  whatsappBold,
} from './whatsapp-text';

/** The tree written short: text as itself, a mark as [type, ...children], a link as {href}. */
type Short = string | { href: string } | [string, ...Short[]];
const short = (nodes: WhatsappNode[]): Short[] =>
  nodes.map((node) =>
    node.type === 'text'
      ? node.text
      : node.type === 'link'
        ? { href: node.href }
        : [node.type, ...short(node.children)],
  );
const read = (text: string) => short(parseWhatsappText(text));

describe('parseWhatsappText', () => {
  it('reads the four marks', () => {
    expect(read('*Ana Atendente*:\nOlá _você_ ~não~ `x`')).toEqual([
      ['bold', 'Ana Atendente'],
      ':\nOlá ',
      ['italic', 'você'],
      ' ',
      ['strike', 'não'],
      ' ',
      ['mono', 'x'],
    ]);
    expect(read('*1* - _Insatisfeito_')).toEqual([
      ['bold', '1'],
      ' - ',
      ['italic', 'Insatisfeito'],
    ]);
  });

  it('reads marks inside marks, but nothing inside mono', () => {
    expect(read('*negrito com ~riscado~ e _itálico_*')).toEqual([
      ['bold', 'negrito com ', ['strike', 'riscado'], ' e ', ['italic', 'itálico']],
    ]);
    expect(read('`*não* _é_`')).toEqual([['mono', '*não* _é_']]);
  });

  it('leaves lone, spaced, inner-word and unclosed marks as text', () => {
    for (const text of [
      '2 * 3 * 4',
      'a*b*c',
      '*sem fim',
      'snake_case_name',
      '* espaço*',
      '*espaço *',
      '**',
      '*a\nb*',
      '*palavra*colada',
    ]) {
      expect(read(text), text).toEqual([text]);
    }
  });

  it('reads http(s) links whole, without the punctuation after them', () => {
    expect(read('veja https://exemplo.com/a_b_c?d=1. e javascript:alert(1)')).toEqual([
      'veja ',
      { href: 'https://exemplo.com/a_b_c?d=1' },
      '. e javascript:alert(1)',
    ]);
    expect(read('*https://exemplo.com*')).toEqual([['bold', { href: 'https://exemplo.com' }]]);
    expect(read('xhttps://exemplo.com')).toEqual(['xhttps://exemplo.com']);
  });

  it('keeps markup as the characters it is', () => {
    expect(read('*<img src=x onerror=alert(1)>*')).toEqual([
      ['bold', '<img src=x onerror=alert(1)>'],
    ]);
  });

  it('reads each kind of mark inside the others, a mark closing at its first closer', () => {
    expect(read('*_~`x`~_*')).toEqual([['bold', ['italic', ['strike', ['mono', 'x']]]]]);
    expect(read('*a *b* c*')).toEqual([['bold', 'a *b'], ' c*']);
  });

  it('reads a long text of unclosed marks in one pass per line', () => {
    const text = '*a _b ~c '.repeat(2_000);
    expect(read(text)).toEqual([text]);
  });
});

describe('plainWhatsappText', () => {
  it('drops the marks and keeps the words', () => {
    expect(plainWhatsappText('*Ana*:\n_Bom dia_, veja https://x.com ~já~ `ok`')).toBe(
      'Ana:\nBom dia, veja https://x.com já ok',
    );
    expect(plainWhatsappText('2 * 3 * 4')).toBe('2 * 3 * 4');
  });
});

describe('whatsappBold', () => {
  it('writes what the reader reads as bold', () => {
    expect(read(`${whatsappBold('Ana Atendente')}:\nOlá`)).toEqual([
      ['bold', 'Ana Atendente'],
      ':\nOlá',
    ]);
  });
});
