import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import { i18n, initI18n } from '../app/i18n';
import { toast } from '../app/toast';

// findBy and waitFor give up after one second by default; a page's render and its answers take
// longer than that while the server's tests load both cores. Waiting longer changes no outcome.
configure({ asyncUtilTimeout: 5_000 });

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
