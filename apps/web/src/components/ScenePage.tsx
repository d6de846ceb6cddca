import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { type ReactNode, useEffect } from 'react';

/** A screen's frame: its title as the page heading (and the document title), then its content. */
export function ScenePage({ title, children }: { title: string; children?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · BTalk`;
  }, [title]);
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 4 }, borderRadius: 3 }}>
      <Typography
        variant="h4"
        component="h1"
        gutterBottom
        sx={(theme) => ({
          fontWeight: 700,
          color: 'primary.main',
          ...theme.applyStyles('dark', { color: 'primary.light' }),
        })}
      >
        {title}
      </Typography>
      {children}
    </Paper>
  );
}
