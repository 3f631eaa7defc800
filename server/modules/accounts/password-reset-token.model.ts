import { BaseModel } from "../../db/base.model";

/** A link to reset a forgotten password (migration 20261123000014): only its hash is kept. */
export class PasswordResetToken extends BaseModel {
  static tableName = "password_reset_tokens";

  id!: string;
  userId!: string;
  tokenHash!: string;
  /** The user's credentials version when issued: a password change since ends the link. */
  credentialsVersion!: number;
  expiresAt!: Date;
  usedAt!: Date | null;
  createdAt!: Date;

  // No updated_at column.
  $beforeUpdate() {}
}
