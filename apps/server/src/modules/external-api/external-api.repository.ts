import { eq } from 'drizzle-orm';
import { contacts } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import { presentContact } from '../contacts/contacts.repository';

/**
 * The company's contact of a number, inserted (named by its number) when there is none; says
 * whether it was inserted. A race with an inbound message is decided by the unique number.
 */
export async function contactOfNumber(db: TenantDb, number: string) {
  const [inserted] = await db
    .insert(contacts, { name: number, number })
    .onConflictDoNothing()
    .returning();
  if (inserted) return { contact: presentContact(inserted), created: true };
  const [row] = await db.selectFrom(contacts, eq(contacts.number, number)).limit(1);
  if (!row) throw new Error('contactOfNumber: the contact is neither new nor stored');
  return { contact: presentContact(row), created: false };
}
