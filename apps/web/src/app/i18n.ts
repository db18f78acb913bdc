import { LANGUAGES, type Language } from '@atendi/shared';
import i18next, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';

const LANGUAGE_KEY = 'language';
export const DEFAULT_LANGUAGE: Language = 'pt';
/** Namespaces the shell needs on every screen; feature namespaces load with their pages. */
export const SHELL_NAMESPACES = ['common', 'layout', 'backendErrors'];

const bundles = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json');

/** Each language and namespace is its own small chunk, fetched the first time it is used. */
const lazyBundles: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const load = bundles[`../locales/${language}/${namespace}.json`];
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (module) => callback(null, module.default),
      (error: Error) => callback(error, false),
    );
  },
};

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

export function storedLanguage(): Language {
  try {
    const value = localStorage.getItem(LANGUAGE_KEY);
    return isLanguage(value) ? value : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

const HTML_LANG: Record<Language, string> = { pt: 'pt-BR', en: 'en', es: 'es' };

/** The BCP 47 tag of a language of the interface (what Intl and the page's lang take). */
export const languageTag = (language: string): string =>
  isLanguage(language) ? HTML_LANG[language] : HTML_LANG[DEFAULT_LANGUAGE];

export async function changeLanguage(language: Language): Promise<void> {
  localStorage.setItem(LANGUAGE_KEY, language);
  await i18n.changeLanguage(language);
}

export const i18n = i18next.createInstance();

i18n.on('languageChanged', (language) => {
  if (typeof document !== 'undefined' && isLanguage(language)) {
    document.documentElement.lang = HTML_LANG[language];
  }
});

let ready: Promise<unknown> | null = null;

export function initI18n(language: Language = storedLanguage()): Promise<unknown> {
  ready ??= i18n
    .use(lazyBundles)
    .use(initReactI18next)
    .init({
      lng: language,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      ns: SHELL_NAMESPACES,
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: true },
    });
  return ready;
}
