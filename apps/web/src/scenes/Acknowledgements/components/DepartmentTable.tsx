import type { AnnouncementDepartment } from '@btalk/contracts';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** Every department of the audience with its counts, most people first (the server's order). */
export function DepartmentTable({ departments }: { departments: AnnouncementDepartment[] }) {
  const { t } = useTranslation('announcements');
  if (departments.length === 0) return null;
  return (
    <Box component="section" aria-labelledby="departments-heading" sx={{ mb: 3 }}>
      <Typography id="departments-heading" variant="h6" component="h2" gutterBottom>
        {t('report.departments')}
      </Typography>
      {/* On a narrow phone the table may scroll sideways: the keyboard must reach it to scroll it (WCAG 2.1.1). */}
      <TableContainer tabIndex={0} role="region" aria-labelledby="departments-heading">
        {/* Tighter cells on a phone, so that its five columns fit 390 px. */}
        <Table
          size="small"
          aria-labelledby="departments-heading"
          sx={{ '& .MuiTableCell-root': { px: { xs: 0.75, sm: 2 } } }}
        >
          <TableHead>
            <TableRow>
              <TableCell component="th" scope="col">
                {t('report.departmentName')}
              </TableCell>
              <TableCell component="th" scope="col" align="right">
                {t('report.audience')}
              </TableCell>
              <TableCell component="th" scope="col" align="right">
                {t('report.seen')}
              </TableCell>
              <TableCell component="th" scope="col" align="right">
                {t('report.acknowledged')}
              </TableCell>
              <TableCell component="th" scope="col" align="right">
                {t('report.notYet')}
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {departments.map((d) => (
              <TableRow key={d.name}>
                <TableCell component="th" scope="row">
                  {d.name || t('report.noDepartment')}
                </TableCell>
                <TableCell align="right">{d.audience}</TableCell>
                <TableCell align="right">{d.seen}</TableCell>
                <TableCell align="right">{d.acknowledged}</TableCell>
                <TableCell align="right">{d.notYet}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}
