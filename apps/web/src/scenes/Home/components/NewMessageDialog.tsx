import type { User } from '@btalk/contracts';
import { MAX_CONVERSATION_PEOPLE } from '@btalk/contracts/constants';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormHelperText from '@mui/material/FormHelperText';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PeoplePicker } from '../../../components/PeoplePicker.tsx';
import { useStartConversation } from '../../../components/PersonCard/useStartConversation.ts';

/** Most people one picks: the conversation also holds its starter. */
const MAX_OTHERS = MAX_CONVERSATION_PEOPLE - 1;

/**
 * "New message": pick 1 to 7 people with the people picker, then open the conversation with them
 * (the one they already have with the caller, or a new one).
 */
export default function NewMessageDialog({
  myId,
  onClose,
}: {
  myId: string | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation('directMessages');
  const [people, setPeople] = useState<User[]>([]);
  const start = useStartConversation(onClose);
  const tooMany = people.length > MAX_OTHERS;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="new-message-title">
      <DialogTitle id="new-message-title">{t('dialog.title')}</DialogTitle>
      <DialogContent>
        <form
          id="new-message-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (people.length > 0 && !tooMany) start.mutate(people.map((p) => p.id));
          }}
        >
          <PeoplePicker
            label={t('dialog.people')}
            value={people}
            onChange={setPeople}
            exclude={myId ? [myId] : []}
          />
          <FormHelperText error={tooMany}>
            {tooMany ? t('dialog.tooMany', { max: MAX_OTHERS }) : t('dialog.help', { max: MAX_OTHERS })}
          </FormHelperText>
        </form>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('dialog.cancel')}</Button>
        <Button
          type="submit"
          form="new-message-form"
          variant="contained"
          disabled={people.length === 0 || tooMany || start.isPending}
        >
          {t('dialog.start')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
