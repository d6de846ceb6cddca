import type { TermsLocale } from '@btalk/contracts';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Markdown } from '../../../components/Markdown.tsx';
import type { Draft } from './PublishForm.tsx';

const LOCALES: TermsLocale[] = ['th', 'en'];

/** Title and Markdown body of a draft in each language, each with a preview as people will see it. */
export function TermsEditor({
  draft,
  onChange,
  maxTitle,
  maxBody,
}: {
  draft: Draft;
  onChange: (draft: Draft) => void;
  maxTitle: number;
  maxBody: number;
}) {
  const { t } = useTranslation('termsAdmin');
  const [locale, setLocale] = useState<TermsLocale>('th');
  const [mode, setMode] = useState<'write' | 'preview'>('write');
  const text = draft[locale];
  const set = (patch: Partial<Draft[TermsLocale]>) => onChange({ ...draft, [locale]: { ...text, ...patch } });
  const titleError = text.title.trim().length > maxTitle;
  const bodyError = text.body.trim().length > maxBody;

  return (
    <Box>
      <Box
        sx={{
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          gap: 1,
          flexWrap: 'wrap',
          mb: 2,
        }}
      >
        <Tabs
          value={locale}
          onChange={(_e, value: TermsLocale) => setLocale(value)}
          sx={(theme) => ({
            // The primary purple is too dark to read on the dark background.
            '& .MuiTab-root.Mui-selected': theme.applyStyles('dark', { color: theme.palette.primary.light }),
            '& .MuiTabs-indicator': theme.applyStyles('dark', {
              backgroundColor: theme.palette.primary.light,
            }),
          })}
          aria-label={t('language')}
        >
          {LOCALES.map((l) => (
            <Tab key={l} value={l} label={t(`languages.${l}`)} />
          ))}
        </Tabs>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={mode}
          onChange={(_e, value: 'write' | 'preview' | null) => value && setMode(value)}
          aria-label={t('mode')}
        >
          <ToggleButton value="write">{t('write')}</ToggleButton>
          <ToggleButton value="preview">{t('preview')}</ToggleButton>
        </ToggleButtonGroup>
      </Box>
      {mode === 'write' ? (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <TextField
            label={t('titleField')}
            value={text.title}
            onChange={(e) => set({ title: e.target.value })}
            error={titleError}
            helperText={titleError ? t('tooLong', { max: maxTitle }) : undefined}
            required
            fullWidth
            slotProps={{ htmlInput: { lang: locale } }}
          />
          <TextField
            label={t('bodyField')}
            value={text.body}
            onChange={(e) => set({ body: e.target.value })}
            error={bodyError}
            helperText={bodyError ? t('tooLong', { max: maxBody }) : t('bodyHelp')}
            required
            fullWidth
            multiline
            minRows={10}
            maxRows={30}
            slotProps={{ htmlInput: { lang: locale, spellCheck: true } }}
          />
        </Box>
      ) : (
        <Paper
          variant="outlined"
          lang={locale}
          sx={{ p: { xs: 2, sm: 3 }, borderRadius: 2 }}
          aria-label={t('previewLabel', { language: t(`languages.${locale}`) })}
          role="region"
        >
          <Typography variant="h5" component="p" sx={{ fontWeight: 700, mb: 1 }}>
            {text.title || t('untitled')}
          </Typography>
          <Markdown text={text.body} variant="document" />
        </Paper>
      )}
    </Box>
  );
}
