import { defineContract } from '../contract';
import {
  dashboardChartQuerySchema,
  dashboardQuerySchema,
  dashboardSchema,
  ticketsDaySchema,
  ticketsUsersSchema,
} from './dashboard.schemas';
import {
  appointmentsAtendentSchema,
  departamentRatingsSchema,
  rushHourSchema,
  ticketReportQuerySchema,
  ticketReportSchema,
} from './reports.schemas';

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
  appointmentsAtendent: {
    method: 'GET',
    path: '/reports/appointmentsAtendent',
    access: 'dashboard:view',
    query: dashboardChartQuerySchema,
    responses: { 200: appointmentsAtendentSchema },
  },
  rushHour: {
    method: 'GET',
    path: '/reports/rushHour',
    access: 'dashboard:view',
    query: dashboardChartQuerySchema,
    responses: { 200: rushHourSchema },
  },
  departamentRatings: {
    method: 'GET',
    path: '/reports/departamentRatings',
    access: 'dashboard:view',
    query: dashboardChartQuerySchema,
    responses: { 200: departamentRatingsSchema },
  },
  /** The reports screen (/relatorios, admins' menu): the tickets of a period, filtered, a page. */
  ticketReport: {
    method: 'GET',
    path: '/ticket/reports',
    access: 'dashboard:view',
    query: ticketReportQuerySchema,
    responses: { 200: ticketReportSchema },
  },
});
