import CssBaseline from '@mui/material/CssBaseline';
import { enUS, esES, ptBR } from '@mui/material/locale';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

export type ThemeMode = 'light' | 'dark';
const THEME_KEY = 'preferredTheme';

function storedMode(): ThemeMode {
  try {
    const value = localStorage.getItem(THEME_KEY);
    if (value === 'light' || value === 'dark') return value;
    return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  } catch {
    return 'light';
  }
}

interface ThemeModeValue {
  mode: ThemeMode;
  toggleMode: () => void;
}

const ThemeModeContext = createContext<ThemeModeValue>({ mode: 'light', toggleMode: () => {} });

export const useThemeMode = () => useContext(ThemeModeContext);

const MUI_LOCALES = { pt: ptBR, en: enUS, es: esES } as const;

export function buildTheme(mode: ThemeMode, language: string) {
  const locale = MUI_LOCALES[language as keyof typeof MUI_LOCALES] ?? ptBR;
  return createTheme(
    {
      palette: {
        mode,
        primary: { main: mode === 'light' ? '#2576d2' : '#64a8f0' },
        secondary: { main: mode === 'light' ? '#0b8a5f' : '#4cc99a' },
        background:
          mode === 'light'
            ? { default: '#f3f5f8', paper: '#ffffff' }
            : { default: '#121418', paper: '#1b1e24' },
      },
      shape: { borderRadius: 8 },
      typography: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif' },
      components: {
        MuiButton: { defaultProps: { disableElevation: true } },
        MuiTooltip: { defaultProps: { arrow: true } },
      },
    },
    locale,
  );
}

export function ThemeModeProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<ThemeMode>(storedMode);
  // no suspense here: the theme must not wait for translations
  const { i18n } = useTranslation(undefined, { useSuspense: false });
  const toggleMode = useCallback(() => {
    setMode((current) => {
      const next = current === 'light' ? 'dark' : 'light';
      localStorage.setItem(THEME_KEY, next);
      return next;
    });
  }, []);
  const theme = useMemo(() => buildTheme(mode, i18n.language), [mode, i18n.language]);
  const value = useMemo(() => ({ mode, toggleMode }), [mode, toggleMode]);
  return (
    <ThemeModeContext.Provider value={value}>
      <ThemeProvider theme={theme}>
        <CssBaseline enableColorScheme />
        {children}
      </ThemeProvider>
    </ThemeModeContext.Provider>
  );
}
