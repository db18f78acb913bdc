import { chatTopic, chatUserTopic } from '@atendi/shared';
import type { Audience, RealtimeAudience } from '../../platform/realtime';

/**
 * A chat is heard by its members only (GET /chats/:id answers its members), in their rooms: on
 * `chat` (our web and the original's popover); a chat added or changed by its owner on each
 * member's own list topic, its messages and reads on the chat's own channel (the original's open
 * chat), as the original client hears them.
 */
export const chatsAudience: RealtimeAudience = (events, realtime) => {
  const members = (companyId: number, userIds: number[]): Audience => ({ companyId, userIds });
  const memberIds = (chat: { users: { userId: number }[] }) =>
    chat.users.map((member) => member.userId);
  events.on('chat.saved', ({ companyId, action, chat, removedUserIds }) => {
    const audience = members(companyId, memberIds(chat));
    realtime.emit(audience, 'chat', { action, record: chat, chat });
    for (const userId of memberIds(chat)) {
      realtime.emit(members(companyId, [userId]), chatUserTopic(userId), { action, record: chat });
    }
    if (removedUserIds?.length) {
      realtime.emit(members(companyId, removedUserIds), 'chat', { action: 'delete', id: chat.id });
    }
  });
  events.on('chat.read', ({ companyId, chat }) => {
    const audience = members(companyId, memberIds(chat));
    realtime.emit(audience, 'chat', { action: 'update', record: chat, chat });
    realtime.emit(audience, chatTopic(chat.id), { action: 'update', chat });
  });
  events.on('chat.message', ({ companyId, message, chat }) => {
    const audience = members(companyId, memberIds(chat));
    const payload = { action: 'new-message', newMessage: { ...message, chat }, chat } as const;
    realtime.emit(audience, 'chat', payload);
    realtime.emit(audience, chatTopic(chat.id), payload);
  });
  events.on('chat.deleted', ({ companyId, chatId, memberIds: ids }) =>
    realtime.emit(members(companyId, ids), 'chat', { action: 'delete', id: chatId }),
  );
};
