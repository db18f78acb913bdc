import { ERROR_CODES, LANGUAGES } from '@atendi/shared';
import { describe, expect, it } from 'vitest';

const files = import.meta.glob<Record<string, unknown>>('./*/*.json', {
  eager: true,
  import: 'default',
});

function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) =>
    keysOf(child, prefix ? `${prefix}.${key}` : key),
  );
}

const bundle = (language: string, namespace: string) => files[`./${language}/${namespace}.json`];
const namespaces = Object.keys(files)
  .filter((path) => path.startsWith('./pt/'))
  .map((path) => path.slice('./pt/'.length, -'.json'.length));

describe('translations', () => {
  it.each(namespaces)('%s has the same keys in every language', (namespace) => {
    const expected = keysOf(bundle('pt', namespace)).sort();
    for (const language of LANGUAGES) {
      expect(keysOf(bundle(language, namespace)).sort(), `${language}/${namespace}`).toEqual(
        expected,
      );
    }
  });

  it('translates every error code the server answers', () => {
    for (const language of LANGUAGES) {
      const errors = bundle(language, 'backendErrors') ?? {};
      const missing = ERROR_CODES.filter((code) => typeof errors[code] !== 'string');
      expect(missing, language).toEqual([]);
    }
  });

  it.each(['contactLists', 'files'])(
    'names the %s page in the menu as its title does, in every language',
    (page) => {
      for (const language of LANGUAGES) {
        const menu = (bundle(language, 'layout') as { menu: Record<string, string> }).menu;
        expect(menu[page], language).toBe(bundle(language, page)?.title);
      }
    },
  );

  it('leaves no value empty', () => {
    for (const [path, content] of Object.entries(files)) {
      const empty = keysOf(content).filter((key) => {
        const value = key
          .split('.')
          .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], content);
        return typeof value !== 'string' || value.trim() === '';
      });
      expect(empty, path).toEqual([]);
    }
  });
});
