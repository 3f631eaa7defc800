import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A mail as the test SMTP server received it, parsed. */
export type ReceivedMail = {
  from: string;
  /** The envelope's recipients. */
  to: string[];
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers: Map<string, unknown>;
};

/**
 * A real SMTP server on a loopback port (the smtp-server package), for the tests of the outbox:
 * the store's nodemailer transport talks SMTP to it, as it would to a mail provider. It can be
 * stopped and started again on the same port (an outage), and can refuse chosen recipients for good.
 */
export class TestSmtpServer {
  readonly received: ReceivedMail[] = [];
  /** Recipients refused with 550 (a permanent refusal). */
  readonly refuse = new Set<string>();
  private server: SMTPServer | null = null;
  private constructor(public port: number) {}

  static async start(port = 0): Promise<TestSmtpServer> {
    const smtp = new TestSmtpServer(port);
    await smtp.listen();
    return smtp;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  private async listen() {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        if (this.refuse.has(address.address.toLowerCase())) {
          const error = new Error("Mailbox unavailable") as Error & { responseCode: number };
          error.responseCode = 550;
          return callback(error);
        }
        callback();
      },
      onData: (stream, session, callback) => {
        simpleParser(stream)
          .then((parsed) => {
            this.received.push({
              from: parsed.from?.text ?? "",
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
              subject: parsed.subject ?? "",
              text: parsed.text ?? "",
              html: typeof parsed.html === "string" ? parsed.html : "",
              messageId: parsed.messageId ?? "",
              headers: parsed.headers as Map<string, unknown>,
            });
            callback();
          })
          .catch(callback);
      },
    });
    server.on("error", () => {});
    await new Promise<void>((resolve, reject) => {
      server.listen(this.port, "127.0.0.1", () => resolve());
      server.server.once("error", reject);
    });
    this.port = (server.server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Down: new connections are refused until start(). */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Up again on the same port. */
  async restart(): Promise<void> {
    if (!this.server) await this.listen();
  }

  /** The mails to this address so far. */
  to(address: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.to.includes(address.toLowerCase()));
  }

  /** Waits until a mail matching the test has arrived (15 s at most), and answers it. */
  async waitFor(test: (mail: ReceivedMail) => boolean, timeoutMs = 15_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find(test);
      if (found) return found;
      if (Date.now() > deadline) {
        throw new Error(
          `No such mail within ${timeoutMs} ms; received: ${JSON.stringify(this.received.map((mail) => [mail.to, mail.subject]))}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** The first absolute link of a mail's text that starts with this address. */
export function linkIn(text: string, prefix: string): string {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = new RegExp(`${escaped}[^\\s<>"]*`).exec(text);
  if (!match) throw new Error(`No link starting ${prefix} in:\n${text}`);
  return match[0];
}
