import { Model } from "objection";

/**
 * Shared by every model: timestamps kept by the database (money arrives as numbers through the
 * NUMERIC type parser of database.ts).
 */
export class BaseModel extends Model {
  $beforeUpdate() {
    (this as { updatedAt?: unknown }).updatedAt = new Date();
  }
}
