import { createTheme } from '@mui/material/styles';

/** Brand colours (SPEC.md sections 1 and 9). */
export const BRAND = { primary: '#472F92', secondary: '#8F0562' } as const;

// The brand purple is too dark to read as text on a dark background; text in primary uses this there.
const PRIMARY_ON_DARK = '#C3B3F5';

/** Width of every global dialog, in pixels (SPEC.md section 9). */
export const DIALOG_WIDTH = 360;

/**
 * The MUI theme, light and dark. Sarabun is shipped with the app (no font CDN) and covers Thai and
 * Latin; the person's system preference picks the scheme until they switch it.
 */
export const theme = createTheme({
  cssVariables: { colorSchemeSelector: 'class' },
  colorSchemes: {
    light: { palette: { primary: { main: BRAND.primary }, secondary: { main: BRAND.secondary } } },
    dark: {
      palette: {
        primary: { main: BRAND.primary, light: PRIMARY_ON_DARK, contrastText: '#ffffff' },
        secondary: { main: BRAND.secondary, contrastText: '#ffffff' },
        background: { default: '#15121c', paper: '#1e1a27' },
      },
    },
  },
  typography: { fontFamily: '"Sarabun", "Helvetica", "Arial", sans-serif' },
  components: {
    MuiAppBar: { defaultProps: { enableColorOnDark: true } },
    MuiButton: {
      styleOverrides: {
        root: ({ theme }) =>
          theme.applyStyles('dark', {
            '&.MuiButton-textPrimary, &.MuiButton-outlinedPrimary': { color: PRIMARY_ON_DARK },
          }),
      },
    },
  },
});
