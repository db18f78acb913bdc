/**
 * The chatbot's rules as one pure step: where a ticket stands in the menus, what the contact
 * answered, and the menus themselves give the replies and where the ticket stands next. The
 * service reads the state from the ticket row and writes the next one back, so any instance
 * carries on where another stopped.
 *
 * Rounds (`amountUsedBotQueues`) count the menus shown without progress: the first menu, then
 * each repeat after an answer that is no option. An invalid answer once `maxRounds` menus were
 * shown ends the bot: the ticket waits for a person where it is. Choosing an option and going
 * back with '#' are progress and are not counted.
 */

import { whatsappBold } from '@atendi/shared';

export interface BotOption {
  id: number;
  parentId: number | null;
  option: string;
  title: string;
  message: string;
}

export interface BotQueue {
  id: number;
  name: string;
  greetingMessage: string;
  /** Every option of the queue's menu tree. */
  options: BotOption[];
}

export interface BotMenus {
  /** The connection's greeting, sent above the list of queues. */
  greeting: string;
  /** The connection's queues in menu order: the contact answers 1, 2, ... */
  queues: BotQueue[];
  maxRounds: number;
  /** With a single queue, go straight into it instead of offering a one-line list. */
  straightIntoOnlyQueue: boolean;
}

export interface BotStage {
  queueId: number | null;
  /** The option whose children are on offer; null at the queue's first level. */
  optionId: number | null;
  /** The bot holds the ticket (waits for the contact's choice). */
  chatbot: boolean;
  rounds: number;
}

export interface BotStep {
  replies: string[];
  next: BotStage;
  /** The queue the ticket entered on this step, if it did. */
  enteredQueue?: BotQueue;
}

export const BACK = '#';

const line = (number: string | number, title: string) =>
  `${whatsappBold(String(number))} - ${title}`;

const join = (...parts: string[]) =>
  parts
    .map((part) => part.trim())
    .filter(Boolean)
    .join('\n\n');

function childrenOf(queue: BotQueue, parentId: number | null): BotOption[] {
  return queue.options
    .filter((option) => option.parentId === parentId)
    .sort((a, b) => Number(a.option) - Number(b.option) || a.id - b.id);
}

const optionList = (options: BotOption[]) =>
  [...options.map((option) => line(option.option, option.title)), line(BACK, 'Voltar')].join('\n');

/** Whether the bot acts on a ticket in this stage: it holds it, or the ticket is new to it. */
export function botActs(stage: BotStage): boolean {
  return stage.chatbot || (stage.queueId === null && stage.rounds === 0);
}

export function botStep(stage: BotStage, answer: string, menus: BotMenus): BotStep | undefined {
  if (!botActs(stage) || menus.queues.length === 0) return undefined;
  const text = answer.trim();
  const giveUp = (): BotStep => ({ replies: [], next: { ...stage, chatbot: false } });

  /** The list of queues: first (with the greeting), again after a wrong answer, or back to. */
  const queueMenu = (rounds: number, mode: 'first' | 'repeat' | 'back'): BotStep => {
    if (mode === 'repeat' && rounds >= menus.maxRounds) return giveUp();
    const list = menus.queues.map((queue, index) => line(index + 1, queue.name)).join('\n');
    return {
      replies: [join(mode === 'first' ? menus.greeting : '', list)],
      next: {
        queueId: null,
        optionId: null,
        chatbot: true,
        rounds: mode === 'back' ? rounds : rounds + 1,
      },
    };
  };

  const enter = (queue: BotQueue, rounds: number, before = ''): BotStep => {
    const first = childrenOf(queue, null);
    return {
      replies: [join(before, queue.greetingMessage, first.length ? optionList(first) : '')].filter(
        Boolean,
      ),
      next: { queueId: queue.id, optionId: null, chatbot: first.length > 0, rounds },
      enteredQueue: queue,
    };
  };

  if (stage.queueId === null) {
    if (!stage.chatbot) {
      // First contact: the greeting with the queues, or straight into the only one.
      const only = menus.queues.length === 1 ? menus.queues[0] : undefined;
      if (only && menus.straightIntoOnlyQueue) return enter(only, 0, menus.greeting);
      return queueMenu(0, 'first');
    }
    const index = /^\d{1,3}$/.test(text) ? Number(text) - 1 : -1;
    const chosen = menus.queues[index];
    return chosen ? enter(chosen, stage.rounds) : queueMenu(stage.rounds, 'repeat');
  }

  const queue = menus.queues.find((item) => item.id === stage.queueId);
  if (!queue) return giveUp();
  const current = stage.optionId
    ? queue.options.find((option) => option.id === stage.optionId)
    : undefined;
  const level = childrenOf(queue, current?.id ?? null);

  if (text === BACK) {
    if (!current) return queueMenu(stage.rounds, 'back');
    const parentId = current.parentId;
    const parent = parentId ? queue.options.find((option) => option.id === parentId) : undefined;
    const siblings = childrenOf(queue, parentId);
    return {
      replies: [join(parent ? parent.message : queue.greetingMessage, optionList(siblings))],
      next: { ...stage, optionId: parentId, chatbot: true },
    };
  }

  const chosen = level.find((option) => option.option === text);
  if (!chosen) {
    if (stage.rounds >= menus.maxRounds) return giveUp();
    return {
      replies: [join(current ? current.message : queue.greetingMessage, optionList(level))],
      next: { ...stage, rounds: stage.rounds + 1 },
    };
  }
  const below = childrenOf(queue, chosen.id);
  return {
    replies: [join(chosen.message, below.length ? optionList(below) : '')].filter(Boolean),
    next: { ...stage, optionId: chosen.id, chatbot: below.length > 0 },
  };
}
