import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { useStore } from '../stores/createStore.ts';
import { useRealtime } from './context.ts';
import { type ConnectionStatus, createRealtimeStateStore } from './statusStore.ts';

// Outside the provider (component tests) the indicator reads a connection that never starts.
const IDLE = createRealtimeStateStore();

const COLOURS: Record<Exclude<ConnectionStatus, 'stopped'>, string> = {
  connected: '#4caf50',
  connecting: '#ffb300',
  reconnecting: '#ffb300',
  offline: '#bdbdbd',
};

/**
 * A discreet dot in the app bar: live (green), reconnecting (amber), offline (grey). Its name is
 * read out, and the browser's own tooltip (`title`) says the state on hover: MUI's Tooltip would
 * bring Popper onto every first screen (issue 14). Nothing shows without a session.
 */
export function ConnectionIndicator() {
  const { t } = useTranslation();
  const realtime = useRealtime();
  const status = useStore(realtime?.client.state ?? IDLE, (s) => s.status);
  if (status === 'stopped') return null;
  const label = t(`realtime.${status}`);
  return (
    <Box
      role="status"
      aria-label={label}
      title={label}
      data-status={status}
      sx={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        width: 24,
        height: 24,
        flexShrink: 0,
      }}
    >
      <Box
        sx={{
          width: 10,
          height: 10,
          borderRadius: '50%',
          bgcolor: COLOURS[status],
          boxShadow: '0 0 0 2px rgba(255,255,255,0.6)',
        }}
      />
    </Box>
  );
}
