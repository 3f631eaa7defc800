import { Model } from "objection";

/**
 * Shared by every model: timestamps kept by the database, and money columns (numeric, which pg
 * returns as strings) turned into numbers here, the one place where that happens.
 */
export class BaseModel extends Model {
  static moneyColumns: string[] = [];

  $parseDatabaseJson(json: Record<string, unknown>) {
    const parsed = super.$parseDatabaseJson(json);
    for (const column of (this.constructor as typeof BaseModel).moneyColumns) {
      if (typeof parsed[column] === "string") parsed[column] = Number(parsed[column]);
    }
    return parsed;
  }

  $beforeUpdate() {
    (this as { updatedAt?: unknown }).updatedAt = new Date();
  }
}
