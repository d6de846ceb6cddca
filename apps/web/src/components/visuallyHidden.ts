/**
 * Styles that hide an element from sight but leave it to screen readers: a label that the layout
 * shows another way (a placeholder, an icon) still names its control.
 */
export const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  width: '1px',
  margin: '-1px',
  padding: 0,
  overflow: 'hidden',
  position: 'absolute',
  whiteSpace: 'nowrap',
} as const;
