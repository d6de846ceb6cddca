import { createTheme } from '@mui/material/styles';

/** Brand colours (SPEC.md sections 1 and 9). */
export const BRAND = { primary: '#472F92', secondary: '#8F0562' } as const;

// The brand purple is too dark to read as text on a dark background; text in primary uses this there.
export const PRIMARY_ON_DARK = '#C3B3F5';
// The same for the brand magenta (8.4:1 on the dark paper): `secondary.light` in the dark scheme.
export const SECONDARY_ON_DARK = '#F49AC8';
// The light scheme's warning colour, as text on white and behind white text.
const WARNING_ON_LIGHT = '#B45309';

/**
 * Teams' high-contrast theme: white and yellow on black, as Teams itself shows it. Used only inside
 * the Teams tab (the `contrast` colour scheme), when Teams is in its contrast theme.
 */
const HIGH_CONTRAST = {
  palette: {
    mode: 'dark',
    primary: { main: '#ffff01', light: '#ffff01', dark: '#ffff01', contrastText: '#000000' },
    secondary: { main: '#1aebff', contrastText: '#000000' },
    background: { default: '#000000', paper: '#000000' },
    text: { primary: '#ffffff', secondary: '#ffffff', disabled: '#3ff23f' },
    divider: '#ffffff',
  },
} as const;

declare module '@mui/material/styles' {
  interface ColorSchemeOverrides {
    contrast: true;
  }
}

/** Width of every global dialog, in pixels (SPEC.md section 9). */
export const DIALOG_WIDTH = 360;

/**
 * The MUI theme, light and dark. Sarabun is shipped with the app (no font CDN) and covers Thai and
 * Latin; the person's system preference picks the scheme until they switch it.
 */
export const theme = createTheme({
  cssVariables: { colorSchemeSelector: 'class' },
  colorSchemes: {
    light: {
      palette: {
        primary: { main: BRAND.primary },
        secondary: { main: BRAND.secondary },
        // MUI's orange (#ed6c02) reads at 3.1:1 on white, as text and under white text: a deeper one
        // (5:1). `light` stays the bright orange, under dark text (search marks).
        warning: { main: WARNING_ON_LIGHT, light: '#ff9800', contrastText: '#ffffff' },
      },
    },
    dark: {
      palette: {
        primary: { main: BRAND.primary, light: PRIMARY_ON_DARK, contrastText: '#ffffff' },
        secondary: { main: BRAND.secondary, light: SECONDARY_ON_DARK, contrastText: '#ffffff' },
        background: { default: '#15121c', paper: '#1e1a27' },
      },
    },
    // MUI (7.3) completes only the light and dark schemes' palettes (common, action, ...); a custom
    // scheme given as options crashes the app at start, so it gets a complete palette.
    contrast: { palette: createTheme(HIGH_CONTRAST).palette },
  },
  typography: { fontFamily: '"Sarabun", "Helvetica", "Arial", sans-serif' },
  components: {
    MuiAppBar: { defaultProps: { enableColorOnDark: true } },
    MuiButton: {
      styleOverrides: {
        root: ({ theme }) =>
          theme.applyStyles('dark', {
            '&.MuiButton-textPrimary, &.MuiButton-outlinedPrimary': { color: PRIMARY_ON_DARK },
            '&.MuiButton-textSecondary, &.MuiButton-outlinedSecondary': { color: SECONDARY_ON_DARK },
          }),
      },
    },
    // Text in the brand colours on the dark background: their light variants (WCAG 1.4.3).
    MuiLink: {
      styleOverrides: {
        root: ({ theme }) =>
          theme.applyStyles('dark', { color: PRIMARY_ON_DARK, textDecorationColor: 'currentColor' }),
      },
    },
    MuiTypography: {
      variants: [
        {
          props: { color: 'primary' },
          style: ({ theme }) => theme.applyStyles('dark', { color: PRIMARY_ON_DARK }),
        },
        {
          props: { color: 'secondary' },
          style: ({ theme }) => theme.applyStyles('dark', { color: SECONDARY_ON_DARK }),
        },
      ],
    },
    MuiTab: {
      styleOverrides: {
        root: ({ theme }) =>
          theme.applyStyles('dark', { '&.Mui-selected.MuiTab-textColorPrimary': { color: PRIMARY_ON_DARK } }),
      },
    },
    MuiTabs: {
      styleOverrides: {
        indicator: ({ theme }) => theme.applyStyles('dark', { backgroundColor: PRIMARY_ON_DARK }),
      },
    },
    MuiChip: {
      styleOverrides: {
        root: ({ theme }) =>
          theme.applyStyles('dark', {
            '&.MuiChip-outlinedPrimary': { color: PRIMARY_ON_DARK, borderColor: PRIMARY_ON_DARK },
            '&.MuiChip-outlinedSecondary': { color: SECONDARY_ON_DARK, borderColor: SECONDARY_ON_DARK },
          }),
      },
    },
    MuiFormLabel: {
      styleOverrides: {
        root: ({ theme }) =>
          theme.applyStyles('dark', {
            '&.Mui-focused.MuiFormLabel-colorPrimary:not(.Mui-error)': { color: PRIMARY_ON_DARK },
            '&.Mui-focused.MuiFormLabel-colorSecondary:not(.Mui-error)': { color: SECONDARY_ON_DARK },
          }),
      },
    },
  },
});
