import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { removeFilesOlderThan } from "../../modules/shared/old-files";
import type { OutgoingText, SendOutcome, TextChannelClient } from "./text-channel";

/**
 * With neither WhatsApp nor SMS configured, each text is written as a file under
 * DATA_DIR/messages, as mails without SMTP_URL are (server/mail/eml-files.ts): the store works
 * out of the box, and the admin confirms orders by phone as before. The file holds the customer's
 * number and the confirmation link: it is written readable by the store's user only, and removed
 * after `keepDays` (MAIL_FILES_KEEP_DAYS, as the mail files are) by each app server's sweep
 * (server/jobs/job-tasks.ts).
 */
export class TextFilesClient implements TextChannelClient {
  readonly id = "file" as const;
  constructor(
    private readonly dir: string,
    private readonly options: { keepDays: number },
  ) {}

  async send(text: OutgoingText): Promise<SendOutcome> {
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const id = `file-${new Date().toISOString().replace(/[:.]/g, "-")}-${crypto.randomBytes(4).toString("hex")}`;
    const file = path.join(this.dir, `${id}-${text.reference.replace(/[^A-Za-z0-9-]/g, "")}.txt`);
    await fs.writeFile(file, `To: ${text.phone}\n\n${text.body}\n`, { mode: 0o600 });
    return { kind: "sent", providerMessageId: id };
  }

  /** Removes the text files last written more than `keepDays` before `now`; answers how many. */
  removeOldFiles(now: Date = new Date()): Promise<number> {
    return removeFilesOlderThan(this.dir, {
      keepDays: this.options.keepDays,
      now,
      isOurs: (name) => name.startsWith("file-") && name.endsWith(".txt"),
    });
  }
}
