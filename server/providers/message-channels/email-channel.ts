import { outboxInsertPart, queueMail } from "../../modules/mail/outbox";
import type { Message, MessageChannel } from "./message-channel";

/**
 * Email through the outbox (docs/decisions/2026-11-23-outbox.md): a message becomes an outbox
 * row in the caller's transaction, with its send job, which the job queue runs (server/mail/outbox-sender.ts).
 */
export const emailChannel: MessageChannel = {
  id: "email",
  label: "Email",
  carries: (message: Message) => message.to.length > 0,
  queue: (db, messages) => queueMail(db, messages),
  queuePart: (name, messages) => outboxInsertPart(name, messages),
};
