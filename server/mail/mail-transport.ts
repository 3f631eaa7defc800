import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { MailConfig } from "../settings/config";
import { removeFilesOlderThan } from "../modules/shared/old-files";
import { emlFileName } from "./eml-files";

/** One message as it leaves the store (the outbox sender fills it from an outbox row). */
export type OutgoingMail = {
  /** The outbox row's id: it makes the Message-ID, so a message sent twice would show. */
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  /** It carries a secret (a reset link): an .eml file is marked so that backups leave it out. */
  secret: boolean;
};

export type MailTransport = {
  /** Where mail goes, for the start-up log (never a password). */
  description: string;
  send(mail: OutgoingMail): Promise<void>;
  /** Removes the .eml files older than MAIL_FILES_KEEP_DAYS (nothing with SMTP); answers how many. */
  removeOldFiles(): Promise<number>;
  close(): void;
};

/** How long the SMTP conversation may take at most: the sender holds the message's row lock meanwhile. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * nodemailer over SMTP_URL; without it each message becomes an .eml file under DATA_DIR/outbox,
 * so the store runs with nothing else (docs/decisions/2026-11-23-outbox.md).
 */
export function createMailTransport(config: MailConfig, site: { publicUrl: string; replyTo: string }): MailTransport {
  const domain = new URL(site.publicUrl).hostname || "localhost";
  const envelope = (mail: OutgoingMail) => ({
    from: config.from,
    replyTo: site.replyTo,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: `<${mail.id}@${domain}>`,
    headers: mail.headers,
  });

  if (config.smtpUrl) {
    const transporter = nodemailer.createTransport({ url: config.smtpUrl, ...SMTP_TIMEOUTS });
    const url = new URL(config.smtpUrl);
    return {
      description: `SMTP ${url.protocol}//${url.hostname}${url.port ? `:${url.port}` : ""}`,
      async send(mail) {
        await transporter.sendMail(envelope(mail));
      },
      removeOldFiles: async () => 0,
      close: () => transporter.close(),
    };
  }

  const writer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    description: `.eml files under ${config.outboxDir} (SMTP_URL is not set)`,
    async send(mail) {
      const info = await writer.sendMail(envelope(mail));
      await fs.mkdir(config.outboxDir, { recursive: true });
      // Written under a temporary name, then renamed: a reader never sees half a message.
      const name = emlFileName(new Date(), mail.id, mail.secret);
      const temporary = path.join(config.outboxDir, `.${name}.tmp`);
      await fs.writeFile(temporary, info.message as Buffer, { mode: 0o600 });
      await fs.rename(temporary, path.join(config.outboxDir, name));
    },
    // A sent mail's file is a copy of what the outbox purges once sent (a reset link) and of a
    // customer's address and order: kept for a while to be read, never for good. A temporary
    // file left by a stop mid-write goes the same way.
    async removeOldFiles() {
      return removeFilesOlderThan(config.outboxDir, {
        keepDays: config.filesKeepDays,
        now: new Date(),
        isOurs: (name) => name.endsWith(".eml") || name.endsWith(".tmp"),
      });
    },
    close: () => writer.close(),
  };
}
