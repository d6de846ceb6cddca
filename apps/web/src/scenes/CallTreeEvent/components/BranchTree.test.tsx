import type { CallBranch, CallBranchList } from '@btalk/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { callTreeKeys } from '../../../api/queryKeys.ts';
import { startI18n } from '../../../i18n/index.ts';
import { type Services, ServicesProvider } from '../../../services.tsx';
import { BranchTree } from './BranchTree.tsx';

beforeAll(async () => {
  await startI18n();
});

const branch = (
  id: string,
  displayName: string,
  managerId: string | null,
  depth: number,
  subBranches: number,
  safe: number,
): CallBranch => ({
  id,
  displayName,
  managerId,
  depth,
  subBranches,
  totals: { total: safe + 2, safe, needHelp: 0, noAnswer: 2 },
});

/** What a roll-up sends: the top (Somchai) and the level under him; Malee leads two more branches. */
const sent = [
  branch('m1', 'Somchai', null, 0, 2, 10),
  branch('m2', 'Malee', 'm1', 1, 2, 4),
  branch('m3', 'Niran', 'm1', 1, 0, 3),
];

function renderTree(
  read: (eventId: string, managerId: string, department?: string) => Promise<CallBranchList>,
) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const branches = vi.fn(read);
  const services = { api: { calltree: { branches } } } as unknown as Services;
  const view = render(
    <QueryClientProvider client={qc}>
      <ServicesProvider services={services}>
        {/* The calltree texts load on first use, as in the app. */}
        <Suspense fallback={null}>
          <BranchTree eventId="e1" branches={sent} department="Operations" />
        </Suspense>
      </ServicesProvider>
    </QueryClientProvider>,
  );
  return { qc, branches, view };
}

const item = (name: string) => screen.getByRole('listitem', { name: new RegExp(`^${name}:`) });

describe('the branch tree', () => {
  it('shows the top open and the level under it, and reads a deeper level when a branch is opened', async () => {
    const { qc, branches } = renderTree(async () => ({
      items: [branch('m4', 'Pim', 'm2', 2, 0, 1), branch('m5', 'Kanya', 'm2', 2, 0, 2)],
    }));
    expect(await screen.findByRole('listitem', { name: /^Somchai:/ })).toHaveAccessibleName(
      'Somchai: 10 safe, 0 need help, 2 no answer',
    );
    expect(screen.getByRole('button', { name: 'Hide the branches under Somchai' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(
      within(item('Somchai'))
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('aria-label')),
    ).toEqual(['Malee: 4 safe, 0 need help, 2 no answer', 'Niran: 3 safe, 0 need help, 2 no answer']);
    // Niran leads no branch: nothing to open. Nothing was read yet.
    expect(screen.queryByRole('button', { name: /under Niran/ })).toBeNull();
    expect(branches).not.toHaveBeenCalled();

    const open = screen.getByRole('button', { name: 'Show the branches under Malee' });
    expect(open).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(open);
    expect(await screen.findByRole('listitem', { name: /^Pim:/ })).toHaveAccessibleName(
      'Pim: 1 safe, 0 need help, 2 no answer',
    );
    expect(within(item('Malee')).getAllByRole('listitem')).toHaveLength(2);
    expect(branches).toHaveBeenCalledWith('e1', 'm2', 'Operations');
    expect(screen.getByRole('button', { name: 'Hide the branches under Malee' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    // The opened level sits under the event's key: the roll-up's live refresh refreshes it too.
    expect(qc.getQueryData(callTreeKeys.branches('e1', 'm2', 'Operations'))).toBeDefined();
    expect(callTreeKeys.branches('e1', 'm2', 'Operations').slice(0, 3)).toEqual(callTreeKeys.event('e1'));

    // Closing Somchai hides everything under him.
    await userEvent.click(screen.getByRole('button', { name: 'Hide the branches under Somchai' }));
    expect(screen.queryByRole('listitem', { name: /^Malee:/ })).toBeNull();
  });

  it('says so when a level cannot be read', async () => {
    renderTree(async () => {
      throw new Error('offline');
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Show the branches under Malee' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The branches under Malee could not be loaded.',
    );
  });
});
