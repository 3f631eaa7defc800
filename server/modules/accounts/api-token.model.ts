import { BaseModel } from "../../db/base.model";

export class ApiToken extends BaseModel {
  static tableName = "api_tokens";

  id!: string;
  userId!: string;
  tokenHash!: string;
  expiresAt!: Date;
  lastUsedAt!: Date | null;
  createdAt!: Date;
}
