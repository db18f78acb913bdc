import { contactsContract } from './contacts/contacts.contract';
import type { RouteContract } from './contract';
import { queuesContract } from './queues/queues.contract';
import { quickMessagesContract } from './quick-messages/quick-messages.contract';
import { tagsContract } from './tags/tags.contract';
import { usersContract } from './users/users.contract';

/** Every area's contract: the server registers each route of them, and nothing else. */
export const contracts = {
  users: usersContract,
  queues: queuesContract,
  contacts: contactsContract,
  tags: tagsContract,
  quickMessages: quickMessagesContract,
};

/** Every route of every area, once each. */
export const allRoutes = (): RouteContract[] =>
  Object.values(contracts).flatMap((area) => Object.values(area) as RouteContract[]);
