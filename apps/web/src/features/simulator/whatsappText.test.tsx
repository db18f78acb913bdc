import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { whatsappText } from './whatsappText';

const html = (text: string) => render(<p>{whatsappText(text)}</p>).container.innerHTML;

describe('whatsappText', () => {
  it('turns WhatsApp marks into inline elements', () => {
    expect(html('*Admin*:\nOlá _você_ ~não~ `x`')).toBe(
      '<p><strong>Admin</strong>:\nOlá <em>você</em> <s>não</s> <code>x</code></p>',
    );
  });

  it('keeps markup as text', () => {
    expect(html('*<img src=x onerror=alert(1)>*')).toBe(
      '<p><strong>&lt;img src=x onerror=alert(1)&gt;</strong></p>',
    );
    expect(html('2 * 3 * 4')).toBe('<p>2 * 3 * 4</p>');
  });
});
