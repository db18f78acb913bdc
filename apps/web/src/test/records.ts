import type { Queue } from '@atendi/shared';

/** A queue as GET /queue answers it (the server's whole record, not only what a page reads). */
export const queueRecord = (id: number, name: string, color: string): Queue => ({
  id,
  name,
  color,
  greetingMessage: '',
  complationMessage: '',
  outOfHoursMessage: '',
  ratingMessage: '',
  orderQueue: null,
  integrationId: null,
  promptId: null,
  schedules: [],
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
});
