/**
 * Loads the search panel. Home imports this module, not the panel: a dynamic import carries the
 * list of every chunk its module needs (Vite preloads them together), about 40 names for the panel's
 * MUI parts, and that list would be sent with Home's first screen. This step's list is one name.
 */
export const loadSearchPanel = () => import('./SearchPanel.tsx');
