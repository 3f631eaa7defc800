import { BaseModel } from "../../db/base.model";
import type { DiscountType } from "./discount-values.shared";
import type { PublicDiscount } from "./discount.shape";

/** A discount code (docs/product.md, "Discount codes"). Never deleted: orders point at it. */
export class DiscountCode extends BaseModel {
  static tableName = "discount_codes";

  id!: string;
  code!: string;
  type!: DiscountType;
  /** Percent (1 to 90) or rupees, by type. */
  value!: number;
  firstOrderOnly!: boolean;
  active!: boolean;
  startsAt!: Date | null;
  endsAt!: Date | null;
  maxUses!: number | null;
  createdAt!: Date;
  updatedAt!: Date;

  static modifiers = {
    newestFirst(query: ReturnType<typeof DiscountCode.query>) {
      query.orderBy([
        { column: "discountCodes.createdAt", order: "desc" },
        { column: "discountCodes.id", order: "desc" },
      ]);
    },
  };

  toPublic(usedCount: number): PublicDiscount {
    const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);
    return {
      _id: this.id,
      code: this.code,
      type: this.type,
      value: this.value,
      firstOrderOnly: this.firstOrderOnly,
      active: this.active,
      startsAt: iso(this.startsAt),
      endsAt: iso(this.endsAt),
      maxUses: this.maxUses ?? null,
      usedCount,
      createdAt: new Date(this.createdAt).toISOString(),
      updatedAt: new Date(this.updatedAt).toISOString(),
    };
  }
}
