import type { Knex } from "knex";
import type { StatementPart } from "../shared/statement";
import type { RenderedMail } from "./mail-layout";
import type { MailKind } from "./outbox-values.shared";
import { OutboxMessage } from "./outbox-message.model";

/** A mail to write to the outbox: who, what about, and its rendered parts. */
export type MailToQueue = RenderedMail & {
  kind: MailKind;
  to: string;
  /** The body carries a secret (a reset link): purged once sent or failed for good. */
  secret?: boolean;
  headers?: Record<string, string>;
};

/**
 * Writes mails to the outbox, in the caller's transaction: they are sent only if the event that
 * caused them commits, and then certainly (docs/decisions/2026-11-23-outbox.md). The outbox
 * sender of any app server delivers them.
 */
export async function queueMail(trx: Knex, mails: MailToQueue | MailToQueue[]): Promise<void> {
  const list = Array.isArray(mails) ? mails : [mails];
  if (list.length === 0) return;
  await OutboxMessage.query(trx).insert(list.map(outboxRow));
}

/**
 * An outbox row of a mail, for callers that write it within a larger statement of their own
 * (checkout writes its order, items and mails in one round trip).
 */
export function outboxRow(mail: MailToQueue) {
  return {
    kind: mail.kind,
    recipient: mail.to,
    subject: mail.subject.slice(0, 300),
    textBody: mail.text,
    htmlBody: mail.html,
    headers: mail.headers ?? {},
    secret: mail.secret ?? false,
  };
}

/**
 * Mails written to the outbox as a part of the caller's statement (shared/statement.ts): one
 * INSERT for all of them, whatever their number.
 */
export function outboxInsertPart(name: string, mails: MailToQueue[]): StatementPart {
  const binding = `${name}Mails`;
  return {
    name,
    sql: `INSERT INTO outbox (kind, recipient, subject, text_body, html_body, headers, secret)
          SELECT mail.kind, mail.recipient, mail.subject, mail.text_body, mail.html_body, mail.headers, mail.secret
            FROM jsonb_to_recordset(:${binding}::jsonb) AS mail(kind text, recipient text, subject text, text_body text,
                                                               html_body text, headers jsonb, secret boolean)`,
    bindings: {
      [binding]: JSON.stringify(
        mails.map(outboxRow).map((row) => ({
          kind: row.kind,
          recipient: row.recipient,
          subject: row.subject,
          text_body: row.textBody,
          html_body: row.htmlBody,
          headers: row.headers,
          secret: row.secret,
        })),
      ),
    },
  };
}
