import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderWithApp } from '../../test/render';
import { changeLanguage, i18n } from '../i18n';
import { TopBarMoreMenu } from './TopBarTools';

beforeAll(() => i18n.loadNamespaces(['layout']));
afterEach(() => changeLanguage('pt'));

const openMore = () => fireEvent.click(screen.getByRole('button', { name: 'Mais opções' }));

describe("a phone's 'Mais opções' menu", () => {
  it('holds the volume, the reload, the theme and the language', async () => {
    renderWithApp(<TopBarMoreMenu />);
    openMore();
    const items = (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
    expect(items).toEqual([
      'Volume das notificações',
      'Atualizar página',
      'Ativar modo escuro',
      'Idioma',
    ]);
  });

  it('turns the theme, and opens the volume and the languages under itself', async () => {
    renderWithApp(<TopBarMoreMenu />);
    openMore();
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Ativar modo escuro' }));
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    openMore();
    expect(await screen.findByRole('menuitem', { name: 'Ativar modo claro' })).toBeTruthy();

    fireEvent.click(screen.getByRole('menuitem', { name: 'Volume das notificações' }));
    expect(await screen.findByRole('slider', { name: 'Volume das notificações' })).toBeTruthy();
    fireEvent.keyDown(screen.getByRole('slider'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('slider')).toBeNull());

    openMore();
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Idioma' }));
    fireEvent.click(await screen.findByRole('menuitemradio', { name: 'English' }));
    await waitFor(() => expect(i18n.language).toBe('en'));
    expect(screen.getByRole('button', { name: 'More options' })).toBeTruthy();
  });
});
