import type { Plan } from '@atendi/shared';

/** A plan as the API shows it, from its row (whatever else the row holds is left out). */
export const presentPlan = (plan: Plan): Plan => ({
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
