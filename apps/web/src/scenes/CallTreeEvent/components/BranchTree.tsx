import type { CallBranch } from '@btalk/contracts';
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** The branches in tree order: each manager followed by the branches under them. */
export function treeOrder(branches: CallBranch[]): CallBranch[] {
  const ids = new Set(branches.map((b) => b.id));
  const children = new Map<string | null, CallBranch[]>();
  for (const b of branches) {
    const parent = b.managerId && ids.has(b.managerId) ? b.managerId : null;
    children.set(parent, [...(children.get(parent) ?? []), b]);
  }
  const out: CallBranch[] = [];
  const visit = (parent: string | null) => {
    for (const b of children.get(parent) ?? []) {
      out.push(b);
      visit(b.id);
    }
  };
  visit(null);
  return out;
}

function Count({ value, color, label }: { value: number; color: string; label: string }) {
  return (
    <Box
      component="span"
      title={label}
      aria-label={`${label}: ${value}`}
      sx={{ color, fontWeight: 700, minWidth: 28, textAlign: 'right' }}
    >
      {value}
    </Box>
  );
}

/** Each branch of the snapshot (a manager and everyone under them) with its counts. */
export function BranchTree({ branches }: { branches: CallBranch[] }) {
  const { t } = useTranslation('calltree');
  if (!branches.length) return null;
  const minDepth = Math.min(...branches.map((b) => b.depth));
  return (
    <Box component="section" aria-labelledby="branches-heading" sx={{ mb: 3 }}>
      <Typography id="branches-heading" variant="h6" component="h2" gutterBottom>
        {t('branches.title')}
      </Typography>
      <List dense disablePadding aria-labelledby="branches-heading">
        {treeOrder(branches).map((b) => (
          <ListItem
            key={b.id}
            aria-label={t('branches.item', {
              name: b.displayName,
              safe: b.totals.safe,
              needHelp: b.totals.needHelp,
              noAnswer: b.totals.noAnswer,
            })}
            sx={{ pl: 1 + Math.min(b.depth - minDepth, 6) * 2, borderBottom: 1, borderColor: 'divider' }}
          >
            <Typography variant="body2" sx={{ flex: 1, minWidth: 0 }} noWrap>
              {b.displayName}
              <Typography component="span" variant="caption" color="text.secondary">
                {' '}
                ({b.totals.total})
              </Typography>
            </Typography>
            <Stack direction="row" sx={{ gap: 1 }}>
              <Count value={b.totals.safe} color="success.main" label={t('status.safe')} />
              <Count value={b.totals.needHelp} color="error.main" label={t('status.need_help')} />
              <Count value={b.totals.noAnswer} color="warning.main" label={t('status.no_answer')} />
            </Stack>
          </ListItem>
        ))}
      </List>
    </Box>
  );
}
