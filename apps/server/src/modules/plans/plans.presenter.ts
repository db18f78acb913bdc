import type { Plan } from '@atendi/shared';
import type { plans } from '../../db/schema';

export const presentPlan = (plan: typeof plans.$inferSelect): Plan => ({
  id: plan.id,
  name: plan.name,
  users: plan.users,
  connections: plan.connections,
  queues: plan.queues,
  value: plan.value,
  useCampaigns: plan.useCampaigns,
  useSchedules: plan.useSchedules,
  useInternalChat: plan.useInternalChat,
  useExternalApi: plan.useExternalApi,
  useKanban: plan.useKanban,
  useOpenAi: plan.useOpenAi,
  useIntegrations: plan.useIntegrations,
});
