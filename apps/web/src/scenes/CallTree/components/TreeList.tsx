import type { CallTreeSummary } from '@btalk/contracts';
import AccountTree from '@mui/icons-material/AccountTree';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import { useTranslation } from 'react-i18next';

/** My trees; opening one shows its people and, for admins, its tools. */
export function TreeList({ trees, onOpen }: { trees: CallTreeSummary[]; onOpen(treeId: string): void }) {
  const { t } = useTranslation('calltree');
  return (
    <List disablePadding aria-label={t('list.trees')}>
      {trees.map((tree) => (
        // Each button in its own list item: a list holds only list items (axe: list).
        <ListItem key={tree.id} disablePadding>
          <ListItemButton onClick={() => onOpen(tree.id)} sx={{ borderRadius: 2 }}>
            <ListItemIcon>
              <AccountTree color="primary" />
            </ListItemIcon>
            <ListItemText
              primary={tree.name}
              secondary={[
                t('list.people', { count: tree.memberCount }),
                t(`source.${tree.source}`),
                tree.runningEvents ? t('list.running', { count: tree.runningEvents }) : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            />
          </ListItemButton>
        </ListItem>
      ))}
    </List>
  );
}
