import type { UserProfile } from '@btalk/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { startI18n } from '../../i18n/index.ts';
import { type Services, ServicesProvider } from '../../services.tsx';
import { PersonButton } from './PersonButton.tsx';
import { teamsChatLink, telLink } from './PersonCard.tsx';

const somchai: UserProfile = {
  id: 'u-s',
  displayName: 'สมชาย ใจดี',
  givenName: 'Somchai',
  surname: 'Jaidee',
  email: 'somchai@btalk.test',
  jobTitle: 'Operations Manager',
  department: 'Operations',
  phone: '+66 81 555 0106',
  manager: { id: 'u-m', displayName: 'มาลี ศรีสุข', email: 'malee@btalk.test' },
  disabled: false,
};
const malee: UserProfile = {
  ...somchai,
  id: 'u-m',
  displayName: 'มาลี ศรีสุข',
  givenName: 'Malee',
  surname: 'Srisuk',
  email: 'malee@btalk.test',
  jobTitle: 'Director of Operations',
  phone: null,
  manager: null,
};

function renderButton(myId: string, start = vi.fn(async () => ({ id: 'c1' }))) {
  const profile = vi.fn(async (id: string) => (id === 'u-m' ? malee : somchai));
  const services = {
    api: {
      me: { get: async () => ({ id: myId }) },
      users: { profile },
      conversations: { start },
    },
    session: { getState: () => ({ aad_token: null }), subscribe: () => () => {} },
  } as unknown as Services;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ServicesProvider services={services}>
        <MemoryRouter initialEntries={['/topics/t1']}>
          <Routes>
            <Route
              path="/topics/t1"
              element={
                <PersonButton person={{ id: 'u-s', displayName: 'สมชาย ใจดี' }}>สมชาย ใจดี</PersonButton>
              }
            />
            <Route path="/topics/c1" element={<p>Conversation page</p>} />
          </Routes>
        </MemoryRouter>
      </ServicesProvider>
    </QueryClientProvider>,
  );
  return { profile, start };
}

beforeAll(async () => {
  await startI18n();
});

describe('PersonCard', () => {
  it('opens from a name with the directory’s entry, the manager’s own card, and the Teams link', async () => {
    const { profile } = renderButton('me');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'สมชาย ใจดี' }));
    const card = await screen.findByRole('dialog', { name: 'สมชาย ใจดี' });
    expect(await within(card).findByText('Somchai Jaidee')).toBeInTheDocument();
    expect(within(card).getByText('Operations Manager')).toBeInTheDocument();
    expect(within(card).getByText('Operations')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: '+66 81 555 0106' })).toHaveAttribute(
      'href',
      'tel:+66815550106',
    );
    expect(within(card).getByRole('link', { name: 'somchai@btalk.test' })).toHaveAttribute(
      'href',
      'mailto:somchai@btalk.test',
    );
    const teams = within(card).getByRole('link', { name: 'Chat in Teams' });
    expect(teams).toHaveAttribute(
      'href',
      'https://teams.microsoft.com/l/chat/0/0?users=somchai%40btalk.test',
    );
    expect(teams).toHaveAttribute('target', '_blank');
    expect(within(card).getByRole('button', { name: 'Message' })).toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'มาลี ศรีสุข' }));
    const managerCard = await screen.findByRole('dialog', { name: 'มาลี ศรีสุข' });
    expect(await within(managerCard).findByText('Director of Operations')).toBeInTheDocument();
    expect(profile).toHaveBeenCalledWith('u-m');
    expect(within(managerCard).queryByRole('link', { name: /\+66/ })).toBeNull();
  });

  it('has no "Message" on my own card', async () => {
    renderButton('u-s');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'สมชาย ใจดี' }));
    const card = await screen.findByRole('dialog', { name: 'สมชาย ใจดี' });
    expect(await within(card).findByText('Somchai Jaidee')).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Message' })).toBeNull();
    expect(within(card).getByRole('link', { name: 'Chat in Teams' })).toBeInTheDocument();
  });

  it('"Message" starts the direct conversation and opens it', async () => {
    const { start } = renderButton('me');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'สมชาย ใจดี' }));
    const card = await screen.findByRole('dialog', { name: 'สมชาย ใจดี' });
    await user.click(await within(card).findByRole('button', { name: 'Message' }));
    expect(start).toHaveBeenCalledWith(['u-s']);
    expect(await screen.findByText('Conversation page')).toBeInTheDocument();
  });

  it('makes tel: and Teams addresses from the directory’s values', () => {
    expect(telLink('+66 (81) 555-0106')).toBe('tel:+66815550106');
    expect(telLink('02 555 0100')).toBe('tel:025550100');
    expect(teamsChatLink('a+b@btalk.test')).toBe(
      'https://teams.microsoft.com/l/chat/0/0?users=a%2Bb%40btalk.test',
    );
  });
});
