import { Model } from "objection";
import { BaseModel } from "../../db/base.model";
import type { RefundMethod, ReturnReason, ReturnStatus } from "./return-values.shared";
import type { PublicReturn } from "./return.shape";

/** A line of a return: a copy of the order line it returns (product, name, unit price), and how many. */
export class OrderReturnItem extends BaseModel {
  static tableName = "order_return_items";

  id!: string;
  returnId!: string;
  orderItemId!: string;
  /** Null once the product was deleted; the copy stays. */
  productId!: string | null;
  productName!: string;
  quantity!: number;
  unitPrice!: number;
  position!: number;

  static modifiers = {
    inOrder(query: ReturnType<typeof OrderReturnItem.query>) {
      query.orderBy("position");
    },
  };
}

/** A return of (part of) a delivered order (docs/product.md, "Returns"). */
export class OrderReturn extends BaseModel {
  static tableName = "order_returns";

  id!: string;
  orderId!: string;
  reason!: ReturnReason;
  note!: string | null;
  status!: ReturnStatus;
  /** Why it was rejected, as the customer reads it. */
  rejectionReason!: string | null;
  /** What the customer paid for these items: set when requested (docs/product.md, "Returns"). */
  refundAmount!: number;
  refundMethod!: RefundMethod | null;
  refundReference!: string | null;
  createdAt!: Date;
  updatedAt!: Date;
  items?: OrderReturnItem[];

  static relationMappings = () => ({
    items: {
      relation: Model.HasManyRelation,
      modelClass: OrderReturnItem,
      join: { from: "order_returns.id", to: "order_return_items.returnId" },
    },
  });

  static modifiers = {
    newestFirst(query: ReturnType<typeof OrderReturn.query>) {
      query.orderBy([
        { column: "orderReturns.createdAt", order: "desc" },
        { column: "orderReturns.id", order: "desc" },
      ]);
    },
    oldestFirst(query: ReturnType<typeof OrderReturn.query>) {
      query.orderBy([
        { column: "orderReturns.createdAt", order: "asc" },
        { column: "orderReturns.id", order: "asc" },
      ]);
    },
  };

  toPublic(): PublicReturn {
    return {
      _id: this.id,
      order: this.orderId,
      items: (this.items ?? []).map((item) => ({
        product: { _id: item.productId, name: item.productName },
        quantity: item.quantity,
        price: item.unitPrice,
      })),
      reason: this.reason,
      note: this.note ?? null,
      status: this.status,
      rejectionReason: this.rejectionReason ?? null,
      refundAmount: this.refundAmount,
      refund: this.refundMethod ? { method: this.refundMethod, reference: this.refundReference ?? null } : null,
      createdAt: new Date(this.createdAt).toISOString(),
      updatedAt: new Date(this.updatedAt).toISOString(),
    };
  }
}
