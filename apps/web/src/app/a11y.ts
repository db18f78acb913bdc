/** Read by screen readers, not drawn (an `sx` value). */
export const visuallyHidden = {
  position: 'absolute',
  // px: in sx a bare 1 would mean 100%
  width: '1px',
  height: '1px',
  p: 0,
  m: '-1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;
