import { z } from 'zod';
import { defineContract } from '../contract';
import { idParamsSchema } from '../pagination';
import {
  invoiceSchema,
  invoicesPageSchema,
  invoicesQuerySchema,
  subscriptionChargeSchema,
  subscriptionCreateSchema,
} from './invoices.schemas';

/**
 * The company's invoices and their Pix checkout (spec administration 2, 7). The provider's
 * webhook is public: its access token decides, compared in constant time.
 */
export const invoicesContract = defineContract('invoices', {
  /** A page of invoices, latest due date first, with how many match. */
  page: {
    method: 'GET',
    path: '/invoices',
    access: 'financial:view',
    query: invoicesQuerySchema,
    responses: { 200: invoicesPageSchema },
  },
  /**
   * The invoices as a bare list, latest due date first (the first INVOICES_LIST_MAX): what the
   * original product's Financeiro reads from this route. Its query is the page's; pageNumber
   * does not apply.
   */
  list: {
    method: 'GET',
    path: '/invoices/all',
    access: 'financial:view',
    query: invoicesQuerySchema,
    responses: { 200: z.array(invoiceSchema) },
  },
  get: {
    method: 'GET',
    path: '/invoices/:id',
    access: 'financial:view',
    params: idParamsSchema,
    responses: { 200: invoiceSchema },
  },
  subscribe: {
    method: 'POST',
    path: '/subscription',
    access: 'financial:view',
    body: subscriptionCreateSchema,
    responses: { 200: subscriptionChargeSchema },
  },
  /** Asaas' payment webhook: read after its `asaas-access-token` header is checked. */
  webhook: {
    method: 'POST',
    path: '/subscription/webhook',
    access: 'public',
    responses: { 200: z.object({ received: z.boolean() }) },
  },
});
