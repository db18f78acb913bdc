import type { RouteContract } from './contract';
import { tagsContract } from './tags/tags.contract';

/** Every area's contract: the server registers each route of them, and nothing else. */
export const contracts = {
  tags: tagsContract,
};

/** Every route of every area, once each. */
export const allRoutes = (): RouteContract[] =>
  Object.values(contracts).flatMap((area) => Object.values(area) as RouteContract[]);
