import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { startI18n } from '../../i18n/index.ts';
import { type Services, ServicesProvider } from '../../services.tsx';
import { teamsStore } from '../../stores/teams.ts';
import TeamTab from './TeamTab.tsx';
import { deepLinkTarget, languageOfTeamsLocale } from './teamsHost.ts';

beforeAll(async () => {
  const i18n = await startI18n();
  await i18n.changeLanguage('en');
});

describe('the Teams tab', () => {
  it('says outside Teams that it is for Teams, links to the web app, and signs nobody in', async () => {
    const calls: unknown[] = [];
    const services = {
      config: { teamsTabTestHosts: [] },
      api: { auth: { signInWithTeams: (request: unknown) => calls.push(request) } },
    } as unknown as Services;
    const router = createMemoryRouter([{ path: '/teamtab', element: <TeamTab /> }], {
      initialEntries: ['/teamtab'],
    });
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ServicesProvider services={services}>
          <RouterProvider router={router} />
        </ServicesProvider>
      </QueryClientProvider>,
    );
    // A top-level page has no Teams host: teams-js gives up at once.
    expect(
      await screen.findByText('This view opens as a tab inside Microsoft Teams.', {}, { timeout: 4000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'BTalk in Teams' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open BTalk' })).toHaveAttribute('href', '/');
    expect(calls).toEqual([]);
    expect(teamsStore.getState()).toEqual({ inTeams: false, theme: null });
  });

  it('opens only BTalk paths from a deep link, and speaks Thai when Teams does', () => {
    expect(deepLinkTarget('/topics/t1?post=p1')).toBe('/topics/t1?post=p1');
    expect(deepLinkTarget('/calltree/event/e1')).toBe('/calltree/event/e1');
    for (const other of [
      null,
      '',
      'topics/t1',
      '//evil.example/x',
      'https://evil.example',
      '/\\evil.example',
    ]) {
      expect(deepLinkTarget(other)).toBe('/');
    }
    expect(languageOfTeamsLocale('th-TH')).toBe('th');
    expect(languageOfTeamsLocale('en-US')).toBe('en');
  });
});
