/**
 * Names of the .eml files the store writes without SMTP_URL (server/mail/mail-transport.ts). A
 * mail that carries a secret (a password reset link: the outbox row's `secret`) is marked in its
 * name, `….secret.eml`, and base backups never copy a file so marked (server/backups/data-dir.ts):
 * the mark is set by the writer from the outbox's own flag, not guessed from the mail's text.
 * Both still end in ".eml", so mail programs and anything that tidies the outbox treat them alike.
 */
const SECRET_MARK = ".secret";

export function emlFileName(writtenAt: Date, mailId: string, secret: boolean): string {
  return `${writtenAt.toISOString().replace(/[:.]/g, "-")}-${mailId}${secret ? SECRET_MARK : ""}.eml`;
}

/** True for a marked file, and for its temporary name while it is written (`.<name>.tmp`). */
export function holdsSecret(fileName: string): boolean {
  return fileName.endsWith(`${SECRET_MARK}.eml`) || fileName.endsWith(`${SECRET_MARK}.eml.tmp`);
}
