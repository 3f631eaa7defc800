import { BaseModel } from "../../db/base.model";

export const STOCK_ALERT_STATES = ["waiting", "due", "notified", "cancelled"] as const;
export type StockAlertState = (typeof STOCK_ALERT_STATES)[number];

/**
 * "Notify me when it's back" (migration 20261123000015): waiting while the product is out of
 * stock, due once its stock went above zero, notified once its mail is in the outbox, or
 * cancelled by the customer or the mail's unsubscribe link.
 */
export class StockAlert extends BaseModel {
  static tableName = "stock_alerts";

  id!: string;
  productId!: string;
  email!: string;
  state!: StockAlertState;
  unsubscribeTokenHash!: string | null;
  createdAt!: Date;
  notifiedAt!: Date | null;
  cancelledAt!: Date | null;

  // No updated_at column: BaseModel's timestamp is not written here.
  $beforeUpdate() {}
}
