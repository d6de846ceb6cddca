import { createStore, useStore } from './createStore.ts';

/** Microsoft Teams' themes, as `app.getContext()` and theme changes name them. */
export type TeamsTheme = 'default' | 'dark' | 'contrast';

/** Whether this page runs as the BTalk tab inside Microsoft Teams, and Teams' theme there. */
export interface TeamsState {
  /** True once `/teamtab` connected to Teams: the layout hides what makes no sense in a tab. */
  inTeams: boolean;
  /** Teams' current theme while in Teams; null outside it. */
  theme: TeamsTheme | null;
}

/** The Teams tab's state, kept in memory: Teams loads `/teamtab` afresh each time it opens the tab. */
export const teamsStore = createStore<TeamsState>({ inTeams: false, theme: null });

/** Reads Teams' name of a theme; anything unknown is Teams' default (light) theme. */
export function teamsThemeOf(name: string | undefined): TeamsTheme {
  return name === 'dark' || name === 'contrast' ? name : 'default';
}

/** Whether the page runs inside Microsoft Teams. */
export function useInTeams(): boolean {
  return useStore(teamsStore, (s) => s.inTeams);
}
