import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useTranslation } from 'react-i18next';
import { currentLanguage, type Language } from '../../i18n/index.ts';

const SHORT: Record<Language, string> = { en: 'EN', th: 'ไทย' };

/** Switches between Thai and English; the choice is remembered by the language detector's cache. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const language = currentLanguage();
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={language}
      aria-label={t('language.label')}
      onChange={(_event, next: Language | null) => {
        if (next) void i18n.changeLanguage(next);
      }}
      sx={{
        bgcolor: 'rgba(255,255,255,0.12)',
        '& .MuiToggleButton-root': {
          color: 'inherit',
          borderColor: 'rgba(255,255,255,0.4)',
          px: 1.25,
          py: 0.25,
        },
        '& .MuiToggleButton-root.Mui-selected': { bgcolor: 'rgba(255,255,255,0.28)', color: 'inherit' },
      }}
    >
      {(['en', 'th'] as const).map((lng) => (
        <ToggleButton key={lng} value={lng} aria-label={t(`language.${lng}`)} lang={lng}>
          {SHORT[lng]}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
