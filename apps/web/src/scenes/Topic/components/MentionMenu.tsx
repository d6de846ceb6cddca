import type { User } from '@btalk/contracts';
import List from '@mui/material/List';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import { useTranslation } from 'react-i18next';
import { PersonAvatar } from '../../../components/PersonAvatar.tsx';

/** The `@` people picker under the composer: the people found, one highlighted for Enter. */
export function MentionMenu({
  people,
  active,
  onPick,
}: {
  people: User[];
  active: number;
  onPick: (person: User) => void;
}) {
  const { t } = useTranslation('topic');
  if (people.length === 0) return null;
  return (
    <Paper
      elevation={4}
      sx={{
        position: 'absolute',
        bottom: '100%',
        left: 0,
        right: 0,
        mb: 1,
        zIndex: 2,
        maxHeight: 280,
        overflowY: 'auto',
      }}
    >
      <List dense role="listbox" aria-label={t('composer.mentionList')}>
        {people.map((person, index) => (
          <ListItemButton
            key={person.id}
            role="option"
            aria-selected={index === active}
            selected={index === active}
            // Keep the focus in the text field while picking with the mouse.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => onPick(person)}
          >
            <ListItemAvatar>
              <PersonAvatar person={person} size={28} />
            </ListItemAvatar>
            <ListItemText primary={person.displayName} secondary={person.department} />
          </ListItemButton>
        ))}
      </List>
    </Paper>
  );
}

/** The `@word` being typed just before the caret, or null. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([^\s@[\]()]{0,40})$/u.exec(before);
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, query: match[2]! };
}

/** The mention token of a person, as the API reads it. */
export function mentionToken(person: Pick<User, 'id' | 'displayName'>): string {
  return `@[${person.displayName.replace(/[[\]]/g, '')}](user:${person.id})`;
}
