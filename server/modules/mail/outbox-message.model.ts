import { BaseModel } from "../../db/base.model";
import type { MailKind, OutboxState } from "./outbox-values.shared";

/** One mail in the outbox (migration 20261123000013; docs/decisions/2026-11-23-outbox.md). */
export class OutboxMessage extends BaseModel {
  static tableName = "outbox";

  id!: string;
  kind!: MailKind;
  recipient!: string;
  subject!: string;
  /** Null once purged: a message that carried a secret, after it was sent or failed for good. */
  textBody!: string | null;
  htmlBody!: string | null;
  headers!: Record<string, string>;
  secret!: boolean;
  state!: OutboxState;
  attempts!: number;
  nextAttemptAt!: Date;
  lastError!: string | null;
  sentAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;

  static get jsonAttributes() {
    return ["headers"];
  }
}
