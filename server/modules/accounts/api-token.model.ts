import { BaseModel } from "../../db/base.model";

export class ApiToken extends BaseModel {
  static tableName = "api_tokens";

  id!: string;
  userId!: string;
  tokenHash!: string;
  expiresAt!: Date;
  /** The user's credentials version when the token was issued (see User). */
  credentialsVersion!: number;
  lastUsedAt!: Date | null;
  createdAt!: Date;
}
