import { type ComponentProps, Suspense, useEffect, useState } from 'react';
import { lazyOnFirstUse } from '../lazyOnFirstUse.tsx';

type QuickSwitcherProps = ComponentProps<typeof import('./QuickSwitcher.tsx')['default']>;

// The dialog's code loads the first time it opens: the layout carries only this listener.
const QuickSwitcher = lazyOnFirstUse<QuickSwitcherProps>(() =>
  import('./loadQuickSwitcher.ts').then((m) => m.loadQuickSwitcher()),
);

/** Ctrl+K or Cmd+K (whatever the keyboard's language: the key's place, `KeyK`, counts too). */
function isSwitcherKey(e: KeyboardEvent): boolean {
  return (
    (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && (e.code === 'KeyK' || e.key.toLowerCase() === 'k')
  );
}

/**
 * The quick switcher's key, anywhere in the signed-in app: Ctrl+K (Cmd+K on a Mac) opens "Jump
 * to", a dialog that finds a topic, a conversation or a person; the same key again closes it.
 */
export function QuickSwitcherKey() {
  // null until first opened: nothing of the dialog is loaded before.
  const [open, setOpen] = useState<boolean | null>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!isSwitcherKey(e) || e.defaultPrevented) return;
      e.preventDefault();
      setOpen((was) => !was);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  if (open === null) return null;
  // Its words load with it: nothing shows meanwhile, rather than the screen's loading state.
  return (
    <Suspense fallback={null}>
      <QuickSwitcher open={open} onClose={() => setOpen(false)} />
    </Suspense>
  );
}
