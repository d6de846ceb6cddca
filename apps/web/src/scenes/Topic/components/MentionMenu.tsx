import type { User } from '@btalk/contracts';
import List from '@mui/material/List';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Popper from '@mui/material/Popper';
import { useTranslation } from 'react-i18next';
import { PersonAvatar } from '../../../components/PersonAvatar.tsx';

/** The id of a person's option in the list, for the text field's `aria-activedescendant`. */
export function mentionOptionId(listId: string, index: number): string {
  return `${listId}-option-${index}`;
}

/**
 * The `@` people picker above a text field: the listbox of its combobox. The focus stays in the
 * text field (arrow keys move the highlighted option, named by `aria-activedescendant`); a click
 * picks too.
 */
export function MentionMenu({
  id,
  anchor,
  people,
  active,
  onPick,
}: {
  /** The listbox id (the text field's `aria-controls`). */
  id: string;
  /** What it opens over: the text field. */
  anchor: HTMLElement | null;
  people: User[];
  active: number;
  onPick: (person: User) => void;
}) {
  const { t } = useTranslation('topic');
  const open = people.length > 0 && anchor !== null;
  return (
    <Popper
      open={open}
      anchorEl={anchor}
      placement="top-start"
      // Above dialogs too: the edit dialog's text field has the picker as well.
      sx={{ zIndex: (theme) => theme.zIndex.modal + 1, width: anchor?.offsetWidth }}
    >
      <Paper elevation={4} sx={{ mb: 1, maxHeight: 280, overflowY: 'auto' }}>
        <List dense id={id} role="listbox" aria-label={t('composer.mentionList')}>
          {people.map((person, index) => (
            <ListItemButton
              key={person.id}
              id={mentionOptionId(id, index)}
              role="option"
              aria-selected={index === active}
              selected={index === active}
              // Keep the focus in the text field while picking with the mouse.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => onPick(person)}
              tabIndex={-1}
            >
              <ListItemAvatar>
                <PersonAvatar person={person} size={28} />
              </ListItemAvatar>
              <ListItemText primary={person.displayName} secondary={person.department} />
            </ListItemButton>
          ))}
        </List>
      </Paper>
    </Popper>
  );
}
