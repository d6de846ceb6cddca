import Call from '@mui/icons-material/Call';
import ChatBubbleOutline from '@mui/icons-material/ChatBubbleOutline';
import Email from '@mui/icons-material/Email';
import OpenInNew from '@mui/icons-material/OpenInNew';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ME_QUERY_KEY } from '../../api/me.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { useServices } from '../../services.tsx';
import { PersonAvatar } from '../PersonAvatar.tsx';
import type { CardPerson } from './PersonButton.tsx';
import { useStartConversation } from './useStartConversation.ts';

/** Teams' deep link that opens a chat with a person, by their e-mail address. */
export function teamsChatLink(email: string): string {
  return `https://teams.microsoft.com/l/chat/0/0?users=${encodeURIComponent(email)}`;
}

/** A phone number as a `tel:` address: digits and a leading plus only. */
export function telLink(phone: string): string {
  return `tel:${phone.replace(/(?!^\+)[^\d]/g, '')}`;
}

/**
 * A person's profile card, from the directory (`GET /api/users/:userId`): photo, display name and
 * the Latin-script name when it differs, job title, department, manager (whose own card opens from
 * it), phone and e-mail, "Message" (the direct conversation; not on one's own card) and "Chat in
 * Teams". A popover with the dialog role, named after the person.
 */
export default function PersonCard({
  person,
  anchorEl,
  onClose,
}: {
  person: CardPerson;
  anchorEl: HTMLElement;
  onClose: () => void;
}) {
  const { t } = useTranslation('personCard');
  const { api } = useServices();
  // The manager's name opens their card in place of this one.
  const [shown, setShown] = useState<CardPerson>(person);
  const titleId = useId();
  const profile = useQuery({
    queryKey: queryKeys.profile(shown.id),
    queryFn: () => api.users.profile(shown.id),
    staleTime: 60_000,
    meta: { silent: true },
  });
  const me = useQuery({ queryKey: ME_QUERY_KEY, queryFn: () => api.me.get() });
  const message = useStartConversation(onClose);
  const p = profile.data;
  const name = p?.displayName ?? shown.displayName;
  const latinName = p ? [p.givenName, p.surname].filter(Boolean).join(' ') : '';
  const mine = me.data?.id === shown.id;

  return (
    <Popover
      open
      anchorEl={anchorEl}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      slotProps={{
        paper: { role: 'dialog', 'aria-labelledby': titleId, sx: { width: 340, maxWidth: '95vw' } },
      }}
    >
      <Box sx={{ p: 2 }}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1.5 }}>
          <PersonAvatar person={{ id: shown.id, displayName: name, email: p?.email ?? '' }} size={64} />
          <Box sx={{ minWidth: 0 }}>
            <Typography id={titleId} variant="h6" component="h2" sx={{ lineHeight: 1.3 }}>
              {name}
            </Typography>
            {latinName && latinName !== name && (
              <Typography variant="body2" color="text.secondary" lang="en">
                {latinName}
              </Typography>
            )}
            {p?.jobTitle && <Typography variant="body2">{p.jobTitle}</Typography>}
          </Box>
        </Stack>
        {profile.isPending && (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 2 }}>
            <CircularProgress size={24} aria-label={t('loading')} />
          </Box>
        )}
        {profile.isError && <Alert severity="error">{t('failed')}</Alert>}
        {p && (
          <>
            <Box
              component="dl"
              sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', gap: 0.5, columnGap: 1.5 }}
            >
              {p.department && (
                <>
                  <Typography component="dt" variant="body2" color="text.secondary">
                    {t('department')}
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                    {p.department}
                  </Typography>
                </>
              )}
              {p.manager && (
                <>
                  <Typography component="dt" variant="body2" color="text.secondary">
                    {t('manager')}
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                    <Link
                      component="button"
                      type="button"
                      variant="body2"
                      onClick={() => setShown(p.manager!)}
                    >
                      {p.manager.displayName}
                    </Link>
                  </Typography>
                </>
              )}
              {p.phone && (
                <>
                  <Typography component="dt" variant="body2" color="text.secondary">
                    {t('phone')}
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                    <Link
                      href={telLink(p.phone)}
                      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
                    >
                      <Call fontSize="inherit" aria-hidden />
                      {p.phone}
                    </Link>
                  </Typography>
                </>
              )}
              <Typography component="dt" variant="body2" color="text.secondary">
                {t('email')}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
                <Link
                  href={`mailto:${p.email}`}
                  sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
                >
                  <Email fontSize="inherit" aria-hidden />
                  {p.email}
                </Link>
              </Typography>
            </Box>
            {p.disabled && (
              <Alert severity="info" sx={{ mt: 1.5 }}>
                {t('disabled')}
              </Alert>
            )}
            <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap' }}>
              {!mine && !p.disabled && (
                <Button
                  variant="contained"
                  startIcon={<ChatBubbleOutline />}
                  disabled={message.isPending}
                  onClick={() => message.mutate([p.id])}
                >
                  {t('message')}
                </Button>
              )}
              {p.email && (
                <Button
                  component="a"
                  href={teamsChatLink(p.email)}
                  target="_blank"
                  rel="noopener noreferrer"
                  variant="outlined"
                  endIcon={<OpenInNew />}
                >
                  {t('teams')}
                </Button>
              )}
            </Stack>
          </>
        )}
      </Box>
    </Popover>
  );
}
