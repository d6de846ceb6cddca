import Box from '@mui/material/Box';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId } from 'react';

/** One setting: its name and explanation on the left, a switch (or another control) on the right. */
export function SettingRow({
  label,
  help,
  checked,
  disabled = false,
  onChange,
  action,
  children,
}: {
  label: string;
  /** What it means, read out with the switch. */
  help?: ReactNode;
  /** The switch's state; leave out for a row without a switch. */
  checked?: boolean;
  disabled?: boolean;
  onChange?: (checked: boolean) => void;
  /** A control instead of, or beside, the switch (e.g. a button). */
  action?: ReactNode;
  /** Further lines under the explanation (notes, errors). */
  children?: ReactNode;
}) {
  const id = useId();
  const helpId = `${id}-help`;
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'flex-start',
        gap: 2,
        py: 1.5,
        '& + &': { borderTop: 1, borderColor: 'divider' },
      }}
    >
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        <Typography
          component={checked === undefined ? 'div' : 'label'}
          htmlFor={checked === undefined ? undefined : id}
          sx={{ fontWeight: 500, display: 'block' }}
        >
          {label}
        </Typography>
        {help && (
          <Typography id={helpId} variant="body2" color="text.secondary">
            {help}
          </Typography>
        )}
        {children}
      </Box>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          flexShrink: 0,
          flexWrap: 'wrap',
          justifyContent: 'flex-end',
        }}
      >
        {action}
        {checked !== undefined && (
          <Switch
            id={id}
            checked={checked}
            disabled={disabled}
            onChange={(_event, value) => onChange?.(value)}
            slotProps={{ input: { 'aria-describedby': help ? helpId : undefined } }}
          />
        )}
      </Box>
    </Box>
  );
}
