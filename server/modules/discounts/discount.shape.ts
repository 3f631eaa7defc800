import {
  boolean,
  dateTime,
  described,
  integer,
  nullable,
  number,
  object,
  oneOf,
  text,
  uuid,
  type ShapeOf,
} from "../shared/shapes";
import { DISCOUNT_TYPES } from "./discount-values.shared";

/** A discount code as the admins read it (docs/product.md, "Discount codes"); absent limits are null. */
export const discountShape = object({
  _id: uuid(),
  code: text({ pattern: "^[A-Z0-9]{3,20}$" }),
  type: oneOf(DISCOUNT_TYPES),
  value: described(number({ minimum: 0 }), "percent: 1 to 90; fixed: rupees"),
  firstOrderOnly: boolean(),
  active: boolean(),
  startsAt: described(nullable(dateTime()), "Valid from this moment on; null: from its creation"),
  endsAt: described(nullable(dateTime()), "Valid until this moment (not at it); null: no end"),
  maxUses: described(nullable(integer({ minimum: 1 })), "Uses in all; null: no limit"),
  usedCount: described(
    integer({ minimum: 0 }),
    "Orders that used the code and are not Cancelled (read-only: a cancelled order gives its use back)",
  ),
  createdAt: dateTime(),
  updatedAt: dateTime(),
});
export type PublicDiscount = ShapeOf<typeof discountShape>;
