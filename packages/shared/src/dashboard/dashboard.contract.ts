import { defineContract } from '../contract';
import {
  dashboardChartQuerySchema,
  dashboardQuerySchema,
  dashboardSchema,
  ticketsDaySchema,
  ticketsUsersSchema,
} from './dashboard.schemas';

export const dashboardContract = defineContract('dashboard', {
  get: {
    method: 'GET',
    path: '/dashboard',
    access: 'dashboard:view',
    query: dashboardQuerySchema,
    responses: { 200: dashboardSchema },
  },
  ticketsUsers: {
    method: 'GET',
    path: '/dashboard/ticketsUsers',
    access: 'dashboard:view',
    query: dashboardChartQuerySchema,
    responses: { 200: ticketsUsersSchema },
  },
  ticketsDay: {
    method: 'GET',
    path: '/dashboard/ticketsDay',
    access: 'dashboard:view',
    query: dashboardChartQuerySchema,
    responses: { 200: ticketsDaySchema },
  },
});
