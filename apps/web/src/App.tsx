import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { RouterProvider } from 'react-router/dom';
import { ServicesProvider } from './services.tsx';
import type { Shell } from './startup/createShell.ts';
import { theme } from './theme/index.ts';

/** Theme (light or dark, following the system until switched) and the baseline styles. */
export function Themed({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={theme} defaultMode="system" modeStorageKey="btalk_theme">
      <CssBaseline enableColorScheme />
      {children}
    </ThemeProvider>
  );
}

/** The running app: services, server-data cache and routes. */
export function App({ shell }: { shell: Shell }) {
  return (
    <Themed>
      <ServicesProvider services={shell.services}>
        <QueryClientProvider client={shell.queryClient}>
          <RouterProvider router={shell.router} />
        </QueryClientProvider>
      </ServicesProvider>
    </Themed>
  );
}
