import type { TenantDb } from '../../db/tenant';
import { AppError } from '../../platform/errors';
import { integrationExists, promptExists } from './queue-integrations.repository';

/**
 * That the integration and prompt a queue, connection or ticket names are the caller's own
 * company's: another company's id is refused exactly like an id that exists nowhere.
 */
export async function checkBotReferences(
  db: TenantDb,
  refs: { integrationId?: number | null; promptId?: number | null },
): Promise<void> {
  const fields: { path: string; message: string }[] = [];
  if (refs.integrationId && !(await integrationExists(db, refs.integrationId))) {
    fields.push({ path: 'body.integrationId', message: 'Unknown integration' });
  }
  if (refs.promptId && !(await promptExists(db, refs.promptId))) {
    fields.push({ path: 'body.promptId', message: 'Unknown prompt' });
  }
  if (fields.length) throw new AppError('ERR_VALIDATION', 400, { fields });
}
