import type {
  Company,
  Connection,
  Contact,
  Dashboard,
  DashboardAttendant,
  Prompt,
  Queue,
  QueueIntegration,
  QueueOption,
  Schedule,
} from '@atendi/shared';

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

/** An option of a queue's bot menu as GET /queue-options answers it (children: its own). */
export const queueOptionRecord = (
  id: number,
  fields: Pick<QueueOption, 'queueId' | 'title' | 'option'> & Partial<QueueOption>,
): QueueOption => ({
  id,
  message: '',
  parentId: null,
  children: [],
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...fields,
});

/** A connection as GET /whatsapp answers it. */
export const connectionRecord = (
  id: number,
  name: string,
  status: Connection['status'],
  extra: Partial<Connection> = {},
): Connection => ({
  id,
  name,
  provider: 'beta',
  status,
  qrcode: '',
  number: '',
  retries: 0,
  isDefault: false,
  greetingMessage: '',
  complationMessage: '',
  outOfHoursMessage: '',
  ratingMessage: '',
  expiresInactiveMessage: '',
  expiresTicket: 0,
  timeUseBotQueues: 0,
  maxUseBotQueues: 3,
  timeToTransfer: 0,
  transferQueueId: null,
  integrationId: null,
  timeSendQueue: 0,
  promptId: null,
  queues: [],
  createdAt: '2025-01-02T03:04:00.000Z',
  updatedAt: '2025-01-02T03:04:00.000Z',
  ...extra,
});

/** A company as the sign-up answers it. */
export const companyRecord = (id: number, extra: Partial<Company> = {}): Company => ({
  id,
  name: `Empresa ${id}`,
  email: null,
  phone: null,
  planId: 1,
  status: true,
  dueDate: null,
  recurrence: 'MENSAL',
  schedules: [],
  billingName: null,
  addressZipCode: null,
  addressStreet: null,
  addressState: null,
  addressCity: null,
  addressDistrict: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...extra,
});

/** An attendant of GET /dashboard. */
export const attendantRecord = (
  id: number,
  name: string,
  extra: Partial<DashboardAttendant> = {},
): DashboardAttendant => ({
  id,
  name,
  rating: null,
  avgSupportTime: 0,
  tickets: 0,
  online: false,
  ...extra,
});

/** GET /dashboard's answer. */
export const dashboardRecord = (
  counters: Partial<Dashboard['counters']> = {},
  attendants: DashboardAttendant[] = [],
): Dashboard => ({
  counters: {
    supportHappening: 0,
    supportPending: 0,
    supportFinished: 0,
    leads: 0,
    avgSupportTime: 0,
    avgWaitTime: 0,
    ...counters,
  },
  attendants,
});

/** A contact as GET /contacts/:id answers it. */
export const contactRecord = (
  id: number,
  name: string,
  number: string,
  extra: Partial<Contact> = {},
): Contact => ({
  id,
  name,
  number,
  email: '',
  profilePicUrl: '',
  isGroup: false,
  extraInfo: [],
  whatsappId: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...extra,
});

/** A schedule as GET /schedules answers it (waiting to be sent unless told). */
export const scheduleRecord = (
  id: number,
  contact: { id: number; name: string; number: string },
  extra: Partial<Schedule> = {},
): Schedule => ({
  id,
  body: `Lembrete ${id} para {{contactName}}`,
  sendAt: '2025-01-10T13:00:00.000Z',
  sentAt: null,
  status: 'PENDENTE',
  contactId: contact.id,
  contact,
  whatsappId: null,
  ticketId: null,
  userId: 2,
  mediaPath: null,
  mediaName: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...extra,
});

/** A prompt as GET /prompt answers it (its keys as hints only). */
export const promptRecord = (id: number, name: string, extra: Partial<Prompt> = {}): Prompt => ({
  id,
  name,
  prompt: 'Você atende a loja. Seja breve.',
  voice: 'texto',
  voiceKey: null,
  voiceRegion: '',
  maxTokens: 100,
  temperature: 1,
  apiKey: '••••WXYZ',
  queueId: 1,
  maxMessages: 10,
  queue: { id: 1, name: 'Suporte' },
  lastError: null,
  lastErrorAt: null,
  createdAt: '2025-01-02T03:04:00.000Z',
  updatedAt: '2025-01-02T03:04:00.000Z',
  ...extra,
});

/** A queue integration as GET /queueIntegration answers it. */
export const integrationRecord = (
  id: number,
  name: string,
  type: QueueIntegration['type'],
  extra: Partial<QueueIntegration> = {},
): QueueIntegration => ({
  id,
  type,
  name,
  projectName: name,
  jsonContent: null,
  language: 'pt-BR',
  urlN8N: '',
  typebotSlug: '',
  typebotExpires: 1,
  typebotDelayMessage: 1000,
  typebotKeywordFinish: '',
  typebotKeywordRestart: '',
  typebotUnknownMessage: '',
  typebotRestartMessage: '',
  secret: null,
  createdAt: '2025-01-02T03:04:00.000Z',
  updatedAt: '2025-01-02T03:04:00.000Z',
  ...extra,
});
