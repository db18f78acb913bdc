import { z } from 'zod';
import { defineContract } from '../contract';
import { companyHintQuerySchema, idParamsSchema, listQuerySchema } from '../pagination';
import {
  userCreateSchema,
  userListItemSchema,
  userSchema,
  usersPageSchema,
  userUpdateSchema,
} from './users.schemas';

export const usersContract = defineContract('users', {
  list: {
    method: 'GET',
    path: '/users',
    access: 'users:read',
    query: listQuerySchema,
    responses: { 200: usersPageSchema },
  },
  listAll: {
    method: 'GET',
    path: '/users/list',
    access: 'users:read',
    query: companyHintQuerySchema,
    responses: { 200: z.array(userListItemSchema) },
  },
  get: {
    method: 'GET',
    path: '/users/:id',
    access: 'session:use',
    params: idParamsSchema,
    responses: { 200: userSchema },
  },
  create: {
    method: 'POST',
    path: '/users',
    access: 'users:manage',
    body: userCreateSchema,
    responses: { 201: userSchema },
  },
  update: {
    method: 'PUT',
    path: '/users/:id',
    access: 'session:use',
    params: idParamsSchema,
    body: userUpdateSchema,
    responses: { 200: userSchema },
  },
  remove: {
    method: 'DELETE',
    path: '/users/:id',
    access: 'users:manage',
    params: idParamsSchema,
    responses: { 204: null },
  },
});
