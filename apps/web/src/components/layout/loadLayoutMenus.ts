/**
 * Loads the phone's app-bar menu and the keyboard shortcuts dialog. As with `loadQuickSwitcher.ts`,
 * the layout imports this module, not the two: their dynamic imports carry the lists of chunks they
 * need (Menu, Dialog, their texts), which would otherwise be sent with every first screen.
 */
export const loadAppBarMenu = () => import('./AppBarMenu.tsx');
/** See `loadAppBarMenu`. */
export const loadKeyboardShortcuts = () => import('./KeyboardShortcuts.tsx');
