/**
 * sessionStorage key set by `/teamtab/consent`: this window is the Teams consent popup, so
 * `/aad/callback` tells Teams once signed in. Apart from teamsHost.ts so that the callback page does
 * not load teams-js unless it needs it.
 */
export const TEAMS_CONSENT_FLAG = 'btalk_teams_consent';
