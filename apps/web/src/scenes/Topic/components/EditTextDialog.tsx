import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Props of the edit dialog. */
export interface EditTextDialogProps {
  title: string;
  initial: string;
  maxLength: number;
  onSave: (text: string) => Promise<unknown>;
  onClose: () => void;
}

/** Edits the Markdown text of a post or comment. */
export function EditTextDialog({ title, initial, maxLength, onSave, onClose }: EditTextDialogProps) {
  const { t } = useTranslation('topic');
  const [text, setText] = useState(initial);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    try {
      await onSave(text);
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
        <TextField
          label={t('edit.text')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          multiline
          minRows={3}
          fullWidth
          autoFocus
          sx={{ mt: 1 }}
          slotProps={{ htmlInput: { maxLength } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button variant="contained" onClick={save} loading={saving} disabled={text.trim() === ''}>
          {t('edit.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
