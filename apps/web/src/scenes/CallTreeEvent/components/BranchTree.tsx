import type { CallBranch } from '@btalk/contracts';
import ChevronRight from '@mui/icons-material/ChevronRight';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callTreeKeys } from '../../../api/queryKeys.ts';
import { useServices } from '../../../services.tsx';

/** The branches by the branch directly above them (null: the top of what was sent). */
export function byParent(branches: CallBranch[]): Map<string | null, CallBranch[]> {
  const ids = new Set(branches.map((b) => b.id));
  const children = new Map<string | null, CallBranch[]>();
  for (const b of branches) {
    const parent = b.managerId && ids.has(b.managerId) ? b.managerId : null;
    children.set(parent, [...(children.get(parent) ?? []), b]);
  }
  return children;
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

/** Room for the open/close button, so that names line up whether a branch has sub-branches or not. */
const TOGGLE_WIDTH = 34;

interface NodeProps {
  eventId: string;
  branch: CallBranch;
  /** Sub-branches the roll-up already sent, by the branch above them. */
  sent: Map<string | null, CallBranch[]>;
  department: string | undefined;
  /** Levels below the top of the tree, for the indent. */
  level: number;
}

/**
 * One branch: its counts and, opened, the branches directly under it: those the roll-up sent, or
 * read when opened (and refreshed with the roll-up while open, as their queries sit under the event's key).
 */
function BranchNode({ eventId, branch, sent, department, level }: NodeProps) {
  const { t } = useTranslation('calltree');
  const { api } = useServices();
  const known = sent.get(branch.id);
  const [open, setOpen] = useState(known !== undefined);
  const listId = useId();
  const read = useQuery({
    queryKey: callTreeKeys.branches(eventId, branch.id, department),
    queryFn: () => api.calltree.branches(eventId, branch.id, department),
    enabled: open && known === undefined && branch.subBranches > 0,
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
  const children = known ?? read.data?.items;
  const name = branch.displayName;
  return (
    <Box
      component="li"
      aria-label={t('branches.item', {
        name,
        safe: branch.totals.safe,
        needHelp: branch.totals.needHelp,
        noAnswer: branch.totals.noAnswer,
      })}
    >
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          minHeight: 40,
          pl: Math.min(level, 6) * 2,
          pr: 1,
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        {branch.subBranches > 0 ? (
          <IconButton
            size="small"
            aria-expanded={open}
            aria-controls={open ? listId : undefined}
            aria-label={t(open ? 'branches.hide' : 'branches.show', { name })}
            onClick={() => setOpen(!open)}
            sx={{ width: TOGGLE_WIDTH }}
          >
            {open ? <ExpandMore fontSize="small" /> : <ChevronRight fontSize="small" />}
          </IconButton>
        ) : (
          <Box sx={{ width: TOGGLE_WIDTH, flexShrink: 0 }} />
        )}
        <Typography variant="body2" sx={{ flex: 1, minWidth: 0 }} noWrap>
          {name}
          <Typography component="span" variant="caption" color="text.secondary">
            {' '}
            ({branch.totals.total})
          </Typography>
        </Typography>
        <Stack direction="row" sx={{ gap: 1 }}>
          <Count value={branch.totals.safe} color="success.main" label={t('status.safe')} />
          <Count value={branch.totals.needHelp} color="error.main" label={t('status.need_help')} />
          <Count value={branch.totals.noAnswer} color="warning.main" label={t('status.no_answer')} />
        </Stack>
      </Box>
      {open &&
        (children ? (
          <Box component="ul" id={listId} sx={{ listStyle: 'none', m: 0, p: 0 }}>
            {children.map((c) => (
              <BranchNode
                key={c.id}
                eventId={eventId}
                branch={c}
                sent={sent}
                department={department}
                level={level + 1}
              />
            ))}
          </Box>
        ) : read.isError ? (
          <Typography
            id={listId}
            role="alert"
            variant="body2"
            color="error"
            sx={{ pl: level * 2 + 5, py: 1 }}
          >
            {t('branches.loadFailed', { name })}
          </Typography>
        ) : (
          <Box id={listId} sx={{ pl: level * 2 + 5, py: 1 }}>
            <CircularProgress size={18} aria-label={t('loading')} />
          </Box>
        ))}
    </Box>
  );
}

/**
 * The branches of the caller's scope as a tree that opens level by level, as an organisation chart:
 * the roll-up sends the top and the level under it, a deeper branch's level is read when it is opened.
 * A 10,000-person event has about a thousand branches; sending and drawing all of them on every
 * refresh cost the crisis team's screens (and the server) more than everything else of the roll-up.
 */
export function BranchTree({
  eventId,
  branches,
  department,
}: {
  eventId: string;
  branches: CallBranch[];
  department: string | undefined;
}) {
  const { t } = useTranslation('calltree');
  const sent = useMemo(() => byParent(branches), [branches]);
  const top = sent.get(null) ?? [];
  if (!top.length) return null;
  return (
    <Box component="section" aria-labelledby="branches-heading" sx={{ mb: 3 }}>
      <Typography id="branches-heading" variant="h6" component="h2" gutterBottom>
        {t('branches.title')}
      </Typography>
      <Box component="ul" aria-labelledby="branches-heading" sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {top.map((b) => (
          <BranchNode key={b.id} eventId={eventId} branch={b} sent={sent} department={department} level={0} />
        ))}
      </Box>
    </Box>
  );
}
