// The conversation's receipt: which terms the visitor accepted (where the deployment requires consent)
// and which AI disclosure was delivered, each with its time: proof for the disclosure duty, kept with
// the conversation and shown in its verbose read.
import type { Db } from '../../platform/db/database.js';

export interface ConsentReceipt {
  text: string;
  terms_url: string | null;
  accepted_at: string;
}

export interface DisclosureReceipt {
  visual: string | null;
  verbal: string | null;
  delivered_at: string;
}

export interface ConversationReceipt {
  consent: ConsentReceipt | null;
  disclosure: DisclosureReceipt | null;
}

export async function recordConsent(
  db: Db,
  conversationId: string,
  consent: { text: string; termsUrl: string | null },
  at: Date,
): Promise<void> {
  await db
    .insertInto('conversation_receipts')
    .values({ conversation_id: conversationId, consent_text: consent.text, consent_terms_url: consent.termsUrl, consent_accepted_at: at })
    .execute();
}

export async function recordDisclosure(
  db: Db,
  conversationId: string,
  disclosure: { visual: string | null; verbal: string | null },
  at: Date,
): Promise<void> {
  const values = { disclosure_visual: disclosure.visual, disclosure_verbal: disclosure.verbal, disclosure_delivered_at: at };
  await db
    .insertInto('conversation_receipts')
    .values({ conversation_id: conversationId, ...values })
    .onConflict((oc) => oc.column('conversation_id').doUpdateSet(values))
    .execute();
}

export async function receiptOf(db: Db, conversationId: string): Promise<ConversationReceipt | null> {
  const row = await db.selectFrom('conversation_receipts').selectAll().where('conversation_id', '=', conversationId).executeTakeFirst();
  if (!row) return null;
  const iso = (d: Date | string) => new Date(d).toISOString();
  return {
    consent:
      row.consent_accepted_at && row.consent_text !== null
        ? { text: row.consent_text, terms_url: row.consent_terms_url, accepted_at: iso(row.consent_accepted_at) }
        : null,
    disclosure: row.disclosure_delivered_at
      ? { visual: row.disclosure_visual, verbal: row.disclosure_verbal, delivered_at: iso(row.disclosure_delivered_at) }
      : null,
  };
}
