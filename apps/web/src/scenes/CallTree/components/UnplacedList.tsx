import type { UnplacedPerson } from '@btalk/contracts';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import { useTranslation } from 'react-i18next';

/** Directory people who could not be placed in a tree, and why (never silently dropped). */
export function UnplacedList({ people }: { people: UnplacedPerson[] }) {
  const { t } = useTranslation('calltree');
  if (!people.length) return null;
  return (
    <Alert severity="warning" sx={{ mt: 2 }}>
      <AlertTitle>{t('tree.unplaced', { count: people.length })}</AlertTitle>
      <List dense disablePadding aria-label={t('tree.unplacedList')}>
        {people.map((p) => (
          <ListItem key={p.id} disableGutters>
            <ListItemText
              primary={`${p.displayName} <${p.email}>`}
              secondary={t(`unplacedReason.${p.reason}`)}
            />
          </ListItem>
        ))}
      </List>
    </Alert>
  );
}
