import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { PageLoader } from './app/components/PageLoader';
import { initI18n } from './app/i18n';
import { AppProviders } from './app/providers';
import { AppRouter } from './app/router';

void initI18n();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');

createRoot(root).render(
  <StrictMode>
    <AppProviders>
      <Suspense fallback={<PageLoader fullScreen />}>
        <AppRouter />
      </Suspense>
    </AppProviders>
  </StrictMode>,
);
