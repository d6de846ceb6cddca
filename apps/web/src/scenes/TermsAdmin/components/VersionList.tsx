import type { TermsVersionList } from '@btalk/contracts';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../Terms/formatDate.ts';

/** Every published version, newest first, with who published it and how many people accepted it. */
export function VersionList({ list }: { list: TermsVersionList }) {
  const { t, i18n } = useTranslation('termsAdmin');
  const locale = i18n.resolvedLanguage === 'th' ? 'th' : 'en';
  return (
    // On a phone the table scrolls sideways: a keyboard reaches it too (it holds nothing focusable).
    <TableContainer sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={t('versionsHeading')}>
      <Table size="small" aria-label={t('versionsHeading')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('columns.version')}</TableCell>
            <TableCell>{t('columns.published')}</TableCell>
            <TableCell>{t('columns.accepted')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {list.items.map((item) => {
            const share = list.activePeople > 0 ? (item.acceptedCount / list.activePeople) * 100 : 0;
            return (
              <TableRow key={item.version}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {item.version}
                  {item.current && <Chip label={t('current')} color="primary" size="small" sx={{ ml: 1 }} />}
                </TableCell>
                <TableCell>
                  {formatDate(item.publishedAt, locale)}
                  <Typography variant="body2" color="text.secondary">
                    {item.publishedBy ? item.publishedBy.displayName : t('seeded')}
                  </Typography>
                </TableCell>
                <TableCell sx={{ minWidth: 140 }}>
                  {t('acceptedOf', { count: item.acceptedCount, total: list.activePeople })}
                  <LinearProgress
                    variant="determinate"
                    value={Math.min(100, share)}
                    color="secondary"
                    aria-hidden
                    sx={{ mt: 0.5, borderRadius: 1 }}
                  />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
