import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { Fragment, useId } from 'react';
import { useTranslation } from 'react-i18next';

/** The shortcuts, in the dialog's order: the keys (each one a `<kbd>`) and what they do. */
const SHORTCUTS: Array<{ keys: string[][]; does: string }> = [
  {
    keys: [
      ['Ctrl', 'K'],
      ['⌘', 'K'],
    ],
    does: 'jumpTo',
  },
  { keys: [['?']], does: 'help' },
  { keys: [['/']], does: 'search' },
  { keys: [['J'], ['K']], does: 'nextPrevious' },
  { keys: [['C']], does: 'composer' },
  { keys: [['Enter']], does: 'enter' },
  { keys: [['Shift', 'Enter']], does: 'newLine' },
  { keys: [['Esc']], does: 'escape' },
  { keys: [['Tab'], ['Shift', 'Tab']], does: 'tab' },
];

const kbdSx = {
  px: 0.75,
  py: 0.125,
  border: 1,
  borderColor: 'divider',
  borderBottomWidth: 2,
  borderRadius: 1,
  fontFamily: 'monospace',
  fontSize: '0.875rem',
  bgcolor: 'action.hover',
} as const;

/**
 * The "Keyboard shortcuts" dialog that `?` opens anywhere in the app (outside text fields): every
 * shortcut BTalk has, as a list of keys and what they do. Its own chunk, with its words
 * (`keyboard` namespace), loaded on the first `?`.
 */
export default function KeyboardShortcuts({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('keyboard');
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{t('title')}</DialogTitle>
      {/* On a phone the list scrolls: the keyboard reaches it too (a focusable, named region). */}
      <DialogContent tabIndex={0} role="region" aria-labelledby={titleId}>
        <Box
          component="dl"
          aria-label={t('title')}
          sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 1.25, m: 0 }}
        >
          {SHORTCUTS.map(({ keys, does }) => (
            <Fragment key={does}>
              <Box component="dt" sx={{ whiteSpace: 'nowrap' }}>
                {keys.map((combo, i) => (
                  <Fragment key={combo.join('+')}>
                    {i > 0 && ` ${t('or')} `}
                    {combo.map((key, j) => (
                      <Fragment key={key}>
                        {j > 0 && '+'}
                        <Box component="kbd" sx={kbdSx}>
                          {key}
                        </Box>
                      </Fragment>
                    ))}
                  </Fragment>
                ))}
              </Box>
              <Box component="dd" sx={{ m: 0 }}>
                {t(`does.${does}`)}
              </Box>
            </Fragment>
          ))}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
