/**
 * Loads the quick switcher's dialog. The layout imports this module, not the dialog: a dynamic import
 * carries the list of every chunk its module needs (Vite preloads them together), and the dialog's
 * list (MUI Dialog, TextField, the people search) would be sent with every first screen. This
 * step's list is one name.
 */
export const loadQuickSwitcher = () => import('./QuickSwitcher.tsx');
