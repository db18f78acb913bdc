import { defineContract } from '../contract';
import { idParamsSchema } from '../pagination';
import {
  chatCreateSchema,
  chatListQuerySchema,
  chatMessageCreateSchema,
  chatMessageSchema,
  chatMessagesPageSchema,
  chatMessagesQuerySchema,
  chatReadSchema,
  chatRefParamsSchema,
  chatSchema,
  chatsPageSchema,
  chatUpdateSchema,
} from './chats.schemas';

/**
 * Internal chat (spec administration 2, 4, 5 and 7): conversations between users of a company,
 * seen by their members only; only the owner changes or deletes one. The plan's useInternalChat
 * switches them on.
 */
export const chatsContract = defineContract('chats', {
  list: {
    method: 'GET',
    path: '/chats',
    access: 'internalChat:use',
    query: chatListQuerySchema,
    responses: { 200: chatsPageSchema },
  },
  get: {
    method: 'GET',
    path: '/chats/:id',
    access: 'internalChat:use',
    params: chatRefParamsSchema,
    responses: { 200: chatSchema },
  },
  create: {
    method: 'POST',
    path: '/chats',
    access: 'internalChat:use',
    body: chatCreateSchema,
    responses: { 201: chatSchema },
  },
  update: {
    method: 'PUT',
    path: '/chats/:id',
    access: 'internalChat:use',
    params: idParamsSchema,
    body: chatUpdateSchema,
    responses: { 200: chatSchema },
  },
  remove: {
    method: 'DELETE',
    path: '/chats/:id',
    access: 'internalChat:use',
    params: idParamsSchema,
    responses: { 204: null },
  },
  messages: {
    method: 'GET',
    path: '/chats/:id/messages',
    access: 'internalChat:use',
    params: idParamsSchema,
    query: chatMessagesQuerySchema,
    responses: { 200: chatMessagesPageSchema },
  },
  send: {
    method: 'POST',
    path: '/chats/:id/messages',
    access: 'internalChat:use',
    params: idParamsSchema,
    body: chatMessageCreateSchema,
    responses: { 201: chatMessageSchema },
  },
  read: {
    method: 'POST',
    path: '/chats/:id/read',
    access: 'internalChat:use',
    params: idParamsSchema,
    body: chatReadSchema,
    responses: { 200: chatSchema },
  },
});
