import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MentionInput } from './mentions/MentionInput.tsx';
import { fromMarkup, toMarkup } from './mentions/mentionText.ts';

/** Props of the edit dialog. */
export interface EditTextDialogProps {
  title: string;
  initial: string;
  maxLength: number;
  onSave: (text: string) => Promise<unknown>;
  onClose: () => void;
}

/**
 * Edits the Markdown text of a post or comment: mentions show as names (the stored markup is read
 * into them and written back on save), and `@` picks more people.
 */
export function EditTextDialog({ title, initial, maxLength, onSave, onClose }: EditTextDialogProps) {
  const { t } = useTranslation('topic');
  const [draft, setDraft] = useState(() => fromMarkup(initial));
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    try {
      await onSave(toMarkup(draft));
      onClose();
    } catch {
      // The error dialog has said why; the text stays for another try.
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="edit-text-title">
      <DialogTitle id="edit-text-title">{title}</DialogTitle>
      <DialogContent>
        <Box sx={{ mt: 1 }}>
          <MentionInput
            label={t('edit.text')}
            draft={draft}
            onDraftChange={setDraft}
            minRows={3}
            maxRows={16}
            autoFocus
            maxLength={maxLength}
          />
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button variant="contained" onClick={save} loading={saving} disabled={draft.text.trim() === ''}>
          {t('edit.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
