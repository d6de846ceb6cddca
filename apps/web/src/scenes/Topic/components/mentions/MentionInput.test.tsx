import type { User } from '@btalk/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { startI18n } from '../../../../i18n/index.ts';
import { type Services, ServicesProvider } from '../../../../services.tsx';
import { draftKey, readDraft, useDraft, writeDraft } from './drafts.ts';
import { MentionInput } from './MentionInput.tsx';
import { EMPTY_DRAFT, type MentionDraft, toMarkup } from './mentionText.ts';

const person = (id: string, displayName: string) =>
  ({ id, displayName, email: `${id}@example.com`, department: 'Operations' }) as User;
const people = [person('u-1', 'Somchai Jaidee'), person('u-2', 'Somsak Dee'), person('u-3', 'สมศรี ใจงาม')];

beforeAll(async () => {
  await startI18n();
});

/** A MentionInput with its draft in state; `seen.latest` is the draft last drawn. */
function Harness({ seen, onEnter }: { seen: { latest: MentionDraft }; onEnter: () => void }) {
  const [draft, setDraft] = useState<MentionDraft>(EMPTY_DRAFT);
  seen.latest = draft;
  return (
    <MentionInput label="Message" draft={draft} onDraftChange={setDraft} onEnter={onEnter} maxLength={1000} />
  );
}

/** A MentionInput over a people search that filters `people` by name. */
function renderInput(onEnter = vi.fn()) {
  const search = vi.fn(async (text: string) => ({
    items: people.filter((p) => p.displayName.toLowerCase().includes(text.toLowerCase())),
    nextCursor: null,
  }));
  const services = {
    api: { users: { search } },
    session: { getState: () => ({}), subscribe: () => () => {} },
  };
  const seen = { latest: EMPTY_DRAFT };
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ServicesProvider services={services as unknown as Services}>
        <Harness seen={seen} onEnter={onEnter} />
      </ServicesProvider>
    </QueryClientProvider>,
  );
  return { draft: () => seen.latest, onEnter };
}

describe('the mention combobox', () => {
  it('opens on @, filters as one types, moves with the arrows, picks with Enter and shows the name', async () => {
    const user = userEvent.setup();
    const { draft, onEnter } = renderInput();
    const box = await screen.findByRole('combobox', { name: 'Message' });
    await user.type(box, 'Hi @Som');
    const list = await screen.findByRole('listbox', { name: 'People to mention' });
    expect(box).toHaveAttribute('aria-expanded', 'true');
    expect(box).toHaveAttribute('aria-controls', list.id);
    await vi.waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(2));
    const [first, second] = screen.getAllByRole('option');
    expect(first).toHaveAttribute('aria-selected', 'true');
    expect(box).toHaveAttribute('aria-activedescendant', first!.id);
    await user.keyboard('{ArrowDown}');
    expect(second).toHaveAttribute('aria-selected', 'true');
    expect(box).toHaveAttribute('aria-activedescendant', second!.id);
    await user.keyboard('{ArrowDown}');
    expect(first).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowUp}{Enter}');
    expect(box).toHaveValue('Hi @Somsak Dee ');
    expect(onEnter).not.toHaveBeenCalled();
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(box).toHaveAttribute('aria-expanded', 'false');
    await user.type(box, 'see you');
    expect(toMarkup(draft())).toBe('Hi @[Somsak Dee](user:u-2) see you');
    // Enter with the list closed sends.
    await user.keyboard('{Enter}');
    expect(onEnter).toHaveBeenCalledTimes(1);
  });

  it('picks with Tab and a click too, finds Thai names, and closes with Escape', async () => {
    const user = userEvent.setup();
    const { draft } = renderInput();
    const box = await screen.findByRole('combobox', { name: 'Message' });
    await user.type(box, '@สม');
    // Straight away: the last answer (everyone, for "@") narrowed to the letters typed since.
    await vi.waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1));
    expect(screen.getByRole('option')).toHaveAccessibleName(/สมศรี ใจงาม/);
    await user.keyboard('{Tab}');
    expect(box).toHaveValue('@สมศรี ใจงาม ');
    await user.type(box, '@Somc');
    await user.click(await screen.findByRole('option', { name: /Somchai Jaidee/ }));
    expect(box).toHaveValue('@สมศรี ใจงาม @Somchai Jaidee ');
    expect(draft().mentions.map((m) => m.id)).toEqual(['u-3', 'u-1']);
    await user.type(box, '@So');
    await screen.findByRole('listbox');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(box).toHaveValue('@สมศรี ใจงาม @Somchai Jaidee @So');
  });

  it('takes a whole name away with one Backspace', async () => {
    const user = userEvent.setup();
    const { draft } = renderInput();
    const box = await screen.findByRole('combobox', { name: 'Message' });
    await user.type(box, '@Somc');
    await screen.findByRole('option', { name: /Somchai/ });
    await user.keyboard('{Enter}');
    expect(box).toHaveValue('@Somchai Jaidee ');
    await user.keyboard('{Backspace}{Backspace}');
    expect(box).toHaveValue('');
    expect(draft()).toEqual(EMPTY_DRAFT);
  });
});

describe('drafts', () => {
  const draft: MentionDraft = { text: '@Somchai hi', mentions: [{ id: 'u-1', name: 'Somchai', start: 0 }] };

  it('are kept per person and place, and an empty one is removed', () => {
    writeDraft('me', 'topic:t1', draft);
    expect(readDraft('me', 'topic:t1')).toEqual(draft);
    expect(readDraft('someone-else', 'topic:t1')).toBeNull();
    expect(readDraft('me', 'comments:t1')).toBeNull();
    writeDraft('me', 'topic:t1', EMPTY_DRAFT);
    expect(localStorage.getItem(draftKey('me', 'topic:t1'))).toBeNull();
  });

  it('read nothing from a broken or foreign value, and drop mentions that no longer fit', () => {
    localStorage.setItem(draftKey('me', 'topic:t1'), '{not json');
    expect(readDraft('me', 'topic:t1')).toBeNull();
    localStorage.setItem(draftKey('me', 'topic:t1'), JSON.stringify({ text: 42 }));
    expect(readDraft('me', 'topic:t1')).toBeNull();
    localStorage.setItem(
      draftKey('me', 'topic:t1'),
      JSON.stringify({ text: 'Hi @Somchai', mentions: [{ id: 'u-1', name: 'Somchai', start: 0 }, 'x'] }),
    );
    expect(readDraft('me', 'topic:t1')).toEqual({ text: 'Hi @Somchai', mentions: [] });
  });

  it('come back when the person is known, and follow the text as it changes', () => {
    writeDraft('me', 'comments:p1', draft);
    const { result, rerender } = renderHook(
      ({ id }: { id: string | undefined }) => useDraft(id, 'comments:p1'),
      {
        initialProps: { id: undefined as string | undefined },
      },
    );
    expect(result.current[0]).toEqual(EMPTY_DRAFT);
    rerender({ id: 'me' });
    expect(result.current[0]).toEqual(draft);
    act(() => result.current[1]({ text: 'changed', mentions: [] }));
    expect(readDraft('me', 'comments:p1')).toEqual({ text: 'changed', mentions: [] });
    act(() => result.current[1](EMPTY_DRAFT));
    expect(readDraft('me', 'comments:p1')).toBeNull();
  });
});
