import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import { useTranslation } from 'react-i18next';
import { currentLanguage, LANGUAGES, type Language } from '../../i18n/index.ts';
import { BRAND } from '../../theme/index.ts';

const SHORT: Record<Language, string> = { en: 'EN', th: 'ไทย' };

const edge = 'rgba(255,255,255,0.4)';

/**
 * Switches between Thai and English; the choice is remembered by the language detector's cache. Two
 * pressed-or-not buttons in a named group, on ButtonBase (already on the first screen) rather than
 * MUI's ToggleButtonGroup, whose chunk cost every first screen about 2 KB.
 */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const language = currentLanguage();
  return (
    <Box
      role="group"
      aria-label={t('language.label')}
      sx={{
        display: 'flex',
        border: 1,
        borderColor: edge,
        borderRadius: 1,
        bgcolor: 'rgba(255,255,255,0.12)',
      }}
    >
      {LANGUAGES.map((lng) => (
        <ButtonBase
          key={lng}
          lang={lng}
          aria-label={t(`language.${lng}`)}
          aria-pressed={language === lng}
          onClick={() => void i18n.changeLanguage(lng)}
          sx={{
            px: 1.25,
            py: 0.5,
            typography: 'button',
            lineHeight: 1.5,
            color: 'inherit',
            '& + &': { borderLeft: 1, borderColor: edge },
            '&:hover': { bgcolor: 'rgba(255,255,255,0.08)' },
            // The chosen language is white with the brand colour on it: a translucent white let too
            // little of the bar through for its text to be read (WCAG 1.4.3).
            '&[aria-pressed="true"]': { bgcolor: 'common.white', color: BRAND.primary },
            '&.Mui-focusVisible': { outline: '2px solid', outlineColor: 'common.white', outlineOffset: 2 },
          }}
        >
          {SHORT[lng]}
        </ButtonBase>
      ))}
    </Box>
  );
}
