import { type ComponentProps, Suspense, useEffect, useState } from 'react';
import { lazyOnFirstUse } from '../lazyOnFirstUse.tsx';

type DialogProps = { open: boolean; onClose: () => void };
type QuickSwitcherProps = ComponentProps<typeof import('./QuickSwitcher.tsx')['default']>;

// Each dialog's code (and its words) loads the first time it opens: the layout carries only the
// listener. The imports go through one-name loader modules (see loadQuickSwitcher.ts).
const QuickSwitcher = lazyOnFirstUse<QuickSwitcherProps>(() =>
  import('./loadQuickSwitcher.ts').then((m) => m.loadQuickSwitcher()),
);
const KeyboardShortcuts = lazyOnFirstUse<DialogProps>(() =>
  import('./loadLayoutMenus.ts').then((m) => m.loadKeyboardShortcuts()),
);

/**
 * The keyboard shortcuts of the signed-in app. Ctrl+K or Cmd+K anywhere (whatever the keyboard's
 * language: the key's place, `KeyK`, counts too) opens "Jump to", a dialog that finds a topic, a
 * conversation or a person; the same key again closes it. Outside text fields, `?` opens the
 * "Keyboard shortcuts" dialog and `/` puts the focus in the screen's search field (Home's).
 */
export function ShortcutKeys() {
  // null until first opened: nothing of a dialog is loaded before.
  const [switcher, setSwitcher] = useState<boolean | null>(null);
  const [help, setHelp] = useState<boolean | null>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey) return;
      if (e.ctrlKey || e.metaKey) {
        if (!e.shiftKey && (e.code === 'KeyK' || e.key.toLowerCase() === 'k')) {
          e.preventDefault();
          setSwitcher((was) => !was);
        }
        return;
      }
      // Typing: a text field, a select, an editable area.
      if ((e.target as Element | null)?.closest?.('input,textarea,select,[contenteditable]')) return;
      const search = document.querySelector<HTMLInputElement>('main input[type="search"]');
      if (e.key === '?') setHelp(true);
      else if (e.key === '/' && search) search.focus();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  // Their words load with them: nothing shows meanwhile, rather than the screen's loading state.
  return (
    <Suspense fallback={null}>
      {switcher !== null && <QuickSwitcher open={switcher} onClose={() => setSwitcher(false)} />}
      {help !== null && <KeyboardShortcuts open={help} onClose={() => setHelp(false)} />}
    </Suspense>
  );
}
