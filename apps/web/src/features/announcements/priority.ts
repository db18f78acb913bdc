/** The spec's colours: 1 high red, 2 medium orange, 3 low grey. */
export const PRIORITY_COLORS: Record<number, string> = {
  1: '#d32f2f',
  2: '#ed6c02',
  3: '#757575',
};
export const priorityColor = (priority: number) => PRIORITY_COLORS[priority] ?? PRIORITY_COLORS[3]!;
