import fs from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";
import { thisWorkersStore } from "./worker-store";

/**
 * The journeys' server has no SMTP_URL, so each mail is an .eml file under its DATA_DIR (the
 * worker's own store: tests/e2e/worker-store.ts): read here as a mail program would.
 */
const OUTBOX_DIR = thisWorkersStore().outboxDir;

export type Mail = { to: string; subject: string; text: string; html: string };

/** Waits for the mail to this address whose subject matches (the outbox sender polls every second). */
export async function mailTo(address: string, subject: RegExp): Promise<Mail> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const files = fs.existsSync(OUTBOX_DIR) ? fs.readdirSync(OUTBOX_DIR).filter((file) => file.endsWith(".eml")) : [];
    for (const file of files) {
      const parsed = await simpleParser(fs.readFileSync(path.join(OUTBOX_DIR, file)));
      const to = Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(", ") : (parsed.to?.text ?? "");
      if (to.includes(address) && subject.test(parsed.subject ?? "")) {
        return { to, subject: parsed.subject ?? "", text: parsed.text ?? "", html: String(parsed.html || "") };
      }
    }
    if (Date.now() > deadline) throw new Error(`No mail to ${address} matching ${subject}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The first absolute link in a mail's text to this path of the store. */
export function linkIn(text: string, pathPrefix: string): string {
  const match = new RegExp(`https?://[^\\s/]+${pathPrefix.replace(/[?]/g, "\\?")}[^\\s<>"]*`).exec(text);
  if (!match) throw new Error(`No link to ${pathPrefix} in:\n${text}`);
  return match[0];
}
