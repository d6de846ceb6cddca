import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n, startI18n } from '../../i18n/index.ts';
import { ShortcutKeys } from './ShortcutKeys.tsx';

beforeAll(async () => {
  await startI18n();
  await i18n.changeLanguage('en');
});

function renderScreen() {
  return render(
    <>
      <ShortcutKeys />
      <main>
        <label>
          Search
          <input type="search" />
        </label>
        <label>
          Note
          <textarea />
        </label>
        <button type="button">Elsewhere</button>
      </main>
    </>,
  );
}

describe('ShortcutKeys', () => {
  it('opens the keyboard shortcuts with ? outside text fields, and lists them', async () => {
    renderScreen();
    fireEvent.keyDown(screen.getByRole('button', { name: 'Elsewhere' }), { key: '?' });
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(dialog).getByText('Show these keyboard shortcuts')).toBeInTheDocument();
    expect(within(dialog).getByText('Jump to a topic, conversation or person')).toBeInTheDocument();
    expect(within(dialog).getAllByRole('term').length).toBe(within(dialog).getAllByRole('definition').length);
  });

  it('leaves ? and / to a text field being typed in', async () => {
    renderScreen();
    const note = screen.getByRole('textbox', { name: 'Note' });
    note.focus();
    const question = fireEvent.keyDown(note, { key: '?' });
    const slash = fireEvent.keyDown(note, { key: '/' });
    // Not prevented: the characters are typed.
    expect(question).toBe(true);
    expect(slash).toBe(true);
    expect(note).toHaveFocus();
    await act(async () => {});
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('puts the focus in the screen’s search with /', () => {
    renderScreen();
    const prevented = !fireEvent.keyDown(document.body, { key: '/' });
    expect(prevented).toBe(true);
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveFocus();
  });

  it('does nothing with / where the screen has no search', () => {
    render(<ShortcutKeys />);
    expect(fireEvent.keyDown(document.body, { key: '/' })).toBe(true);
  });
});
