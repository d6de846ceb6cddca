/**
 * Loads Home's "Archived". Home imports this module, not the list: a dynamic import carries the names
 * of every chunk its module needs (the text field's MUI parts), and that list would be sent with
 * Home's first screen. This step's list is one name (as `search/loadSearchPanel.ts`).
 */
export const loadArchivedTopics = () => import('./ArchivedTopics.tsx');
