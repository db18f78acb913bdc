import { LANGUAGES, type Language } from '@atendi/shared';
import TranslateIcon from '@mui/icons-material/Translate';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../i18n';

/** Each language is named in itself, so anyone can find theirs. */
const NATIVE_NAMES: Record<Language, string> = { pt: 'Português', en: 'English', es: 'Español' };
const HTML_LANG: Record<Language, string> = { pt: 'pt-BR', en: 'en', es: 'es' };

export function LanguageMenu() {
  const { t } = useTranslation('layout');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const label = t('language.label');
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          color="inherit"
          aria-label={label}
          aria-haspopup="menu"
          aria-expanded={anchor ? 'true' : undefined}
          aria-controls={anchor ? menuId : undefined}
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <TranslateIcon />
        </IconButton>
      </Tooltip>
      <LanguageChoices id={menuId} anchor={anchor} onClose={() => setAnchor(null)} />
    </>
  );
}

/** The languages to choose from, under whatever opened them. */
export function LanguageChoices(props: {
  id?: string;
  anchor: HTMLElement | null;
  onClose: () => void;
}) {
  const { i18n } = useTranslation('layout');
  return (
    <Menu
      id={props.id}
      anchorEl={props.anchor}
      open={Boolean(props.anchor)}
      onClose={props.onClose}
    >
      {LANGUAGES.map((language) => (
        <MenuItem
          key={language}
          lang={HTML_LANG[language]}
          selected={i18n.language === language}
          aria-checked={i18n.language === language}
          role="menuitemradio"
          onClick={() => {
            props.onClose();
            void changeLanguage(language);
          }}
        >
          {NATIVE_NAMES[language]}
        </MenuItem>
      ))}
    </Menu>
  );
}
