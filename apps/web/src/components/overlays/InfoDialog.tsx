import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import NotificationsActive from '@mui/icons-material/NotificationsActive';
import NotificationsNone from '@mui/icons-material/NotificationsNone';
import NotificationsOff from '@mui/icons-material/NotificationsOff';
import OpenInNew from '@mui/icons-material/OpenInNew';
import WarningAmber from '@mui/icons-material/WarningAmber';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { dialogs, type InfoDialogDetail, useDialogs } from '../../stores/dialogs.ts';
import { dialogSlotProps } from './dialogPaper.ts';

const ICONS = {
  info: InfoOutlined,
  success: CheckCircleOutline,
  warning: WarningAmber,
  notifications: NotificationsNone,
} as const;

function NotificationSteps() {
  const { t } = useTranslation();
  return (
    <>
      <DialogContentText>{t('dialogs.notification.enableIntro')}</DialogContentText>
      <Box component="ol" sx={{ pl: 3, my: 1, color: 'text.secondary' }}>
        <li>{t('dialogs.notification.stepOpen')}</li>
        <li>{t('dialogs.notification.stepAdd')}</li>
      </Box>
    </>
  );
}

function NotificationReady() {
  const { t } = useTranslation();
  const bell = (Icon: typeof NotificationsOff, text: string) => (
    <Box component="li" sx={{ display: 'flex', alignItems: 'center', gap: 1, my: 0.5 }}>
      <Icon fontSize="small" color="primary" aria-hidden />
      <Typography variant="body2">{text}</Typography>
    </Box>
  );
  return (
    <>
      <DialogContentText>{t('dialogs.notification.readyText')}</DialogContentText>
      <DialogContentText sx={{ mt: 2 }}>{t('dialogs.notification.bellIntro')}</DialogContentText>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mt: 1 }}>
        {bell(NotificationsOff, t('dialogs.notification.bellOff'))}
        {bell(NotificationsActive, t('dialogs.notification.bellRing'))}
      </Box>
    </>
  );
}

function titleOf(detail: InfoDialogDetail | null, t: (key: string) => string): string {
  if (detail?.template !== 'notification') return detail?.title ?? '';
  return detail.user_enable ? t('dialogs.notification.readyTitle') : t('dialogs.notification.enableTitle');
}

/**
 * The information dialog: a message, or the notification variants for `user_enable` false (the
 * steps and an Open app button) and true (ready, and what the bells mean) (SPEC.md section 4).
 */
export function InfoDialog({ teamsAppLink }: { teamsAppLink: string | null }) {
  const { t } = useTranslation();
  const open = useDialogs((s) => s.show_info_dialog);
  const detail = useDialogs((s) => s.info_dialog_detail);
  const Icon = ICONS[detail?.icon ?? 'info'];
  const notification = detail?.template === 'notification';
  const needsApp = notification && !detail?.user_enable;
  return (
    <Dialog
      open={open}
      onClose={dialogs.closeInfo}
      slotProps={dialogSlotProps}
      aria-labelledby="info-dialog-title"
    >
      <DialogTitle id="info-dialog-title" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Icon color="primary" aria-hidden />
        {titleOf(detail, t)}
      </DialogTitle>
      <DialogContent>
        {notification ? (
          needsApp ? (
            <NotificationSteps />
          ) : (
            <NotificationReady />
          )
        ) : (
          <DialogContentText sx={{ whiteSpace: 'pre-line' }}>{detail?.text}</DialogContentText>
        )}
        {needsApp && !teamsAppLink && (
          <Typography variant="body2" color="warning.main" sx={{ mt: 1 }}>
            {t('dialogs.notification.noAppLink')}
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        {needsApp &&
          (teamsAppLink ? (
            <Button
              variant="contained"
              endIcon={<OpenInNew />}
              href={teamsAppLink}
              target="_blank"
              rel="noopener noreferrer"
            >
              {t('dialogs.notification.openApp')}
            </Button>
          ) : (
            <Button variant="contained" disabled>
              {t('dialogs.notification.openApp')}
            </Button>
          ))}
        <Button onClick={dialogs.closeInfo}>{t('dialogs.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
