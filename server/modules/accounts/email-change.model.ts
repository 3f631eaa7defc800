import { BaseModel } from "../../db/base.model";

export const EMAIL_CHANGE_STATES = ["pending", "confirmed", "cancelled", "replaced"] as const;
export type EmailChangeState = (typeof EMAIL_CHANGE_STATES)[number];

/**
 * A change of a user's email waiting for the link mailed to the new address (migration
 * 20261125000022): only the token's hash is kept.
 */
export class EmailChange extends BaseModel {
  static tableName = "email_changes";

  id!: string;
  userId!: string;
  newEmail!: string;
  tokenHash!: string;
  /** The user's credentials version when asked: a password change since ends the change. */
  credentialsVersion!: number;
  state!: EmailChangeState;
  expiresAt!: Date;
  createdAt!: Date;
  endedAt!: Date | null;

  // No updated_at column.
  $beforeUpdate() {}
}

/**
 * The address a user's email is waiting to change to, as SQL for the users row under `alias`:
 * the one pending change that is unexpired and was asked at the user's credentials version, or
 * null. Read with the user wherever a public user is made (pendingEmail), in the same query.
 */
export function pendingEmailSql(alias: string): string {
  return `(SELECT ec.new_email FROM email_changes ec
            WHERE ec.user_id = ${alias}.id AND ec.state = 'pending' AND ec.expires_at > now()
              AND ec.credentials_version = ${alias}.credentials_version)`;
}
