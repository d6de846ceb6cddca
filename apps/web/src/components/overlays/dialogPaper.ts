import { DIALOG_WIDTH } from '../../theme/index.ts';

/** Slot props that give a global dialog its fixed width (SPEC.md section 9), narrower on small screens. */
export const dialogSlotProps = {
  paper: { sx: { width: DIALOG_WIDTH, maxWidth: 'calc(100% - 32px)', m: 2 } },
} as const;
