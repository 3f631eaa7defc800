import type { Knex } from "knex";
import type { MailToQueue } from "../../modules/mail/outbox";
import type { StatementPart } from "../../modules/shared/statement";

/**
 * A way the store's messages reach people (docs/decisions/2026-11-25-providers.md). Email
 * through the outbox is the first; a channel that texts (WhatsApp, SMS) is one of its own.
 * A channel only takes messages in the caller's transaction: what it takes is sent after the
 * commit, once, by its own job (the outbox's send job for email), and nothing is sent for a
 * change that rolls back.
 */
export type MessageChannel = {
  readonly id: MessageChannelId;
  readonly label: string;
  /** Whether it takes this message: it has the address it needs, and words for the message's kind. */
  carries(message: Message): boolean;
  /** Writes the messages for sending, in the caller's transaction. */
  queue(db: Knex, messages: Message[]): Promise<void>;
  /** The same, as a part of the caller's one statement (checkout writes everything at once). */
  queuePart(name: string, messages: Message[]): StatementPart;
};

/** The channels the store knows (MESSAGE_CHANNELS chooses among them: message-channels.ts). */
export const MESSAGE_CHANNEL_IDS = ["email"] as const;
export type MessageChannelId = (typeof MESSAGE_CHANNEL_IDS)[number];

/**
 * One message to one person: what it is about and its words, written as a mail (subject, text,
 * HTML, the address it goes to), and the person's mobile number for channels that text.
 */
export type Message = MailToQueue & {
  /** The receiver's mobile number, +923XXXXXXXXX; null when there is none. */
  phone: string | null;
};

/** A mail as a message; `phone` when the person has a mobile number a channel may text. */
export function messageOf(mail: MailToQueue, phone: string | null = null): Message {
  return { ...mail, phone };
}
