import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

/**
 * One figure of a live roll-up (the call tree's Safe / Need help / No answer, an announcement's
 * Sent / Seen / Acknowledged / Not yet): a named section with the number and its label, topped with
 * the status colour. `colouredValue` colours the number too.
 */
export function StatFigure({
  label,
  value,
  color,
  colouredValue = false,
}: {
  label: string;
  value: number;
  color: string;
  colouredValue?: boolean;
}) {
  return (
    <Paper
      component="section"
      aria-label={label}
      variant="outlined"
      sx={{
        p: { xs: 1.5, sm: 2 },
        borderRadius: 2,
        borderTop: 4,
        borderTopColor: color,
        flex: 1,
        minWidth: 0,
      }}
    >
      <Typography
        component="output"
        variant="h4"
        sx={{ fontWeight: 700, display: 'block', ...(colouredValue ? { color } : {}) }}
      >
        {value}
      </Typography>
      <Typography variant="body2" color="text.secondary" noWrap>
        {label}
      </Typography>
    </Paper>
  );
}

/**
 * How far a roll-up has come: a named progress bar and the same words under it. `announce` makes the
 * words a status region (read out as they change) where nothing else on the screen says so.
 */
export function StatProgress({
  percent,
  label,
  text,
  announce = false,
}: {
  percent: number;
  label: string;
  text: string;
  announce?: boolean;
}) {
  return (
    <>
      <LinearProgress
        variant="determinate"
        value={percent}
        aria-label={label}
        aria-valuetext={text}
        sx={{ height: 10, borderRadius: 5 }}
      />
      <Typography
        variant="body2"
        color="text.secondary"
        sx={{ mt: 0.5 }}
        {...(announce ? { role: 'status' } : {})}
      >
        {text}
      </Typography>
    </>
  );
}
