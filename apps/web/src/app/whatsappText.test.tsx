import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { whatsappText } from './whatsappText';

const html = (body: string) => render(<p>{whatsappText(body)}</p>).container.innerHTML;

describe('whatsappText', () => {
  it("draws WhatsApp's four marks as elements", () => {
    expect(html('Olá *Maria*, o preço ~antigo~ mudou')).toBe(
      '<p>Olá <b>Maria</b>, o preço <s>antigo</s> mudou</p>',
    );
    expect(html('*Ana Atendente*:\nBom dia')).toBe('<p><b>Ana Atendente</b>:\nBom dia</p>');
    expect(html('*1* - _Insatisfeito_')).toBe('<p><b>1</b> - <i>Insatisfeito</i></p>');
    expect(html('*negrito com ~riscado~* e `mono`')).toBe(
      '<p><b>negrito com <s>riscado</s></b> e <code>mono</code></p>',
    );
  });

  it('leaves lone or spaced markers as text', () => {
    expect(html('2 * 3 * 4')).toBe('<p>2 * 3 * 4</p>');
    expect(html('a*b*c')).toBe('<p>a*b*c</p>');
    expect(html('*sem fim')).toBe('<p>*sem fim</p>');
  });

  it('shows markup in a body as the characters it is', () => {
    const { container } = render(
      <p>{whatsappText('<img src=x onerror=alert(1)> <script>alert(2)</script> *<b>x</b>*')}</p>,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    expect(container.textContent).toBe(
      '<img src=x onerror=alert(1)> <script>alert(2)</script> <b>x</b>',
    );
    // the only element is the bold we built around the text '<b>x</b>'
    expect(container.querySelectorAll('b')).toHaveLength(1);
    expect(container.querySelector('b')?.textContent).toBe('<b>x</b>');
  });

  it('links addresses with a safe rel and nothing else', () => {
    const { container } = render(
      <p>{whatsappText('veja https://exemplo.com/a?b=1. e javascript:alert(1)')}</p>,
    );
    const links = container.querySelectorAll('a');
    expect(links).toHaveLength(1);
    expect(links[0]?.getAttribute('href')).toBe('https://exemplo.com/a?b=1');
    expect(links[0]?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(container.textContent).toBe('veja https://exemplo.com/a?b=1. e javascript:alert(1)');
  });
});
