import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatBody } from './format';

const html = (body: string) => render(<p>{formatBody(body)}</p>).container.innerHTML;

describe('formatBody', () => {
  it('renders *bold* and ~strike~ as elements', () => {
    expect(html('Olá *Maria*, o preço ~antigo~ mudou')).toBe(
      '<p>Olá <b>Maria</b>, o preço <s>antigo</s> mudou</p>',
    );
    expect(html('*Ana*:\nBom dia')).toBe('<p><b>Ana</b>:\nBom dia</p>');
    expect(html('*negrito com ~riscado~*')).toBe('<p><b>negrito com <s>riscado</s></b></p>');
  });

  it('leaves lone or spaced markers as text', () => {
    expect(html('2 * 3 * 4')).toBe('<p>2 * 3 * 4</p>');
    expect(html('a*b*c')).toBe('<p>a*b*c</p>');
    expect(html('*sem fim')).toBe('<p>*sem fim</p>');
  });

  it('shows markup in a body as the characters it is', () => {
    const { container } = render(
      <p>{formatBody('<img src=x onerror=alert(1)> <script>alert(2)</script> *<b>x</b>*')}</p>,
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
      <p>{formatBody('veja https://exemplo.com/a?b=1. e javascript:alert(1)')}</p>,
    );
    const links = container.querySelectorAll('a');
    expect(links).toHaveLength(1);
    expect(links[0]?.getAttribute('href')).toBe('https://exemplo.com/a?b=1');
    expect(links[0]?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(container.textContent).toBe('veja https://exemplo.com/a?b=1. e javascript:alert(1)');
  });
});
