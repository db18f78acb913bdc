import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import { i18n, initI18n } from '../app/i18n';
import { toast } from '../app/toast';

beforeAll(async () => {
  await initI18n('pt');
  await i18n.loadNamespaces([
    'common',
    'layout',
    'auth',
    'users',
    'connections',
    'simulator',
    'tickets',
    'messages',
    'backendErrors',
  ]);
});

afterEach(() => {
  cleanup();
  toast.clear();
  localStorage.clear();
  sessionStorage.clear();
});
