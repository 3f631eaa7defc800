import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import { ConflictError, NotFoundError } from "../shared/errors.shared";
import { paginationOf, type Pagination } from "../shared/list-query";
import { validateInput } from "../shared/validation";
import { OutboxMessage } from "./outbox-message.model";
import { OUTBOX_PAGE_SIZE, type MailKind, type OutboxState } from "./outbox-values.shared";
import { outboxListQuerySchema, outboxRetrySchema } from "./outbox.schemas";

/**
 * A message as the admin outbox shows it: who, what about, and how its delivery went. Never its
 * body (docs/product.md, "Mail").
 */
export type OutboxEntry = {
  _id: string;
  kind: MailKind;
  recipient: string;
  subject: string;
  state: OutboxState;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  nextAttemptAt: string | null;
  /** Its body was purged (it carried a reset link): it cannot be sent again. */
  purged: boolean;
};

export type OutboxCounts = Record<OutboxState, number>;

export const NOT_RETRYABLE = "Only a message that failed can be sent again";
export const PURGED_CANNOT_RETRY =
  "This message carried a password reset link, which was deleted when it failed: send a new link from Manage Users";

/** The admin's view of the outbox: recent messages and their delivery, and retrying a failed one. */
export class OutboxService {
  constructor(private readonly db: Database) {}

  async listMessages(
    query: unknown,
  ): Promise<{ messages: OutboxEntry[]; pagination: Pagination; counts: OutboxCounts; state: string }> {
    const { page, state } = validateInput(outboxListQuerySchema, query);
    const filtered = OutboxMessage.query(this.db).modify((builder) => {
      if (state) builder.where("state", state);
    });
    const [rows, total, counts] = await Promise.all([
      filtered
        .clone()
        // Never the bodies: only whether they are still there.
        .select(
          "id",
          "kind",
          "recipient",
          "subject",
          "state",
          "attempts",
          "lastError",
          "createdAt",
          "sentAt",
          "nextAttemptAt",
          OutboxMessage.raw("text_body IS NULL AS purged"),
        )
        .orderBy([
          { column: "createdAt", order: "desc" },
          { column: "id", order: "desc" },
        ])
        .limit(OUTBOX_PAGE_SIZE)
        .offset((page - 1) * OUTBOX_PAGE_SIZE),
      filtered.clone().resultSize(),
      this.counts(),
    ]);
    return {
      messages: (rows as (OutboxMessage & { purged: boolean })[]).map((row) => ({
        _id: row.id,
        kind: row.kind,
        recipient: row.recipient,
        subject: row.subject,
        state: row.state,
        attempts: row.attempts,
        lastError: row.lastError,
        createdAt: new Date(row.createdAt).toISOString(),
        sentAt: row.sentAt ? new Date(row.sentAt).toISOString() : null,
        nextAttemptAt: row.state === "queued" ? new Date(row.nextAttemptAt).toISOString() : null,
        purged: row.purged,
      })),
      pagination: paginationOf(page, OUTBOX_PAGE_SIZE, total),
      counts,
      state: state ?? "",
    };
  }

  /** How many messages wait, went out and failed for good (the dashboard shows the failures). */
  async counts(): Promise<OutboxCounts> {
    const rows = (await OutboxMessage.query(this.db)
      .select("state")
      .count("* as count")
      .groupBy("state")) as unknown as { state: OutboxState; count: number }[];
    const counts: OutboxCounts = { queued: 0, sent: 0, failed: 0 };
    for (const row of rows) counts[row.state] = row.count;
    return counts;
  }

  /** A failed message goes back in the queue, with its attempts counted afresh. */
  async retry(input: unknown): Promise<OutboxEntry["recipient"]> {
    const { messageId } = validateInput(outboxRetrySchema, input);
    if (!isUuid(messageId)) throw new NotFoundError("Message not found");
    return this.db.transaction(async (trx) => {
      const message = await OutboxMessage.query(trx)
        .findById(messageId)
        .forUpdate()
        .select("id", "state", "recipient", OutboxMessage.raw("text_body IS NULL AS purged"));
      if (!message) throw new NotFoundError("Message not found");
      if (message.state !== "failed") throw new ConflictError(NOT_RETRYABLE);
      if ((message as OutboxMessage & { purged: boolean }).purged) throw new ConflictError(PURGED_CANNOT_RETRY);
      await OutboxMessage.query(trx)
        .findById(messageId)
        .patch({
          state: "queued",
          attempts: 0,
          lastError: null,
          nextAttemptAt: OutboxMessage.fn.now() as unknown as Date,
        });
      return message.recipient;
    });
  }
}
