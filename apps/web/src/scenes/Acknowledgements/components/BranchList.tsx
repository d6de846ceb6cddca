import type { AnnouncementBranch } from '@btalk/contracts';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/**
 * The branches of the directory's manager hierarchy (the server's order: depth first, by name),
 * indented by depth, each with acknowledged of audience. Choosing one lists only the people under
 * that manager; choosing it again shows everyone.
 */
export function BranchList({
  branches,
  selected,
  onSelect,
}: {
  branches: AnnouncementBranch[];
  selected: string | undefined;
  onSelect: (branch: AnnouncementBranch | undefined) => void;
}) {
  const { t } = useTranslation('announcements');
  if (branches.length === 0) return null;
  const minDepth = Math.min(...branches.map((b) => b.depth));
  return (
    <Box component="section" aria-labelledby="branches-heading" sx={{ mb: 3 }}>
      <Typography id="branches-heading" variant="h6" component="h2">
        {t('report.branches')}
      </Typography>
      <Typography id="branches-help" variant="body2" color="text.secondary" gutterBottom>
        {t('report.branchesHelp')}
      </Typography>
      <List
        dense
        disablePadding
        aria-labelledby="branches-heading"
        sx={{ maxHeight: 420, overflowY: 'auto' }}
      >
        {branches.map((b) => {
          const label = t('report.branchItem', {
            name: b.displayName,
            acknowledged: b.acknowledged,
            audience: b.audience,
          });
          const percent = b.audience ? (b.acknowledged / b.audience) * 100 : 0;
          const chosen = selected === b.id;
          return (
            <ListItem key={b.id} disablePadding sx={{ borderBottom: 1, borderColor: 'divider' }}>
              {/* The name comes from the text itself (no aria-label), so what is read is what is shown. */}
              <ListItemButton
                selected={chosen}
                aria-pressed={chosen}
                aria-describedby="branches-help"
                onClick={() => onSelect(chosen ? undefined : b)}
                sx={{ pl: 1 + Math.min(b.depth - minDepth, 8) * 2, gap: 1 }}
              >
                <Typography
                  variant="body2"
                  noWrap
                  sx={{ flex: 1, minWidth: 0, fontWeight: chosen ? 700 : 400 }}
                >
                  {label}
                </Typography>
                <LinearProgress
                  variant="determinate"
                  value={percent}
                  aria-hidden
                  sx={{ width: { xs: 40, sm: 96 }, height: 6, borderRadius: 3, flexShrink: 0 }}
                />
              </ListItemButton>
            </ListItem>
          );
        })}
      </List>
    </Box>
  );
}
