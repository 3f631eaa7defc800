import { addressShape } from "../shared/address";
import {
  arrayOf,
  dateTime,
  described,
  email,
  integer,
  nullable,
  number,
  object,
  oneOf,
  text,
  uuid,
  type ShapeOf,
} from "../shared/shapes";
import { ORDER_STATUSES, PAYMENT_METHOD } from "./order-values.shared";

/** An order as its customer and the admins read it (docs/product.md, "Orders"). */
export const orderShape = object({
  _id: uuid(),
  user: object({ _id: nullable(uuid()), name: text(), email: email() }),
  items: arrayOf(
    object({
      product: described(
        object({ _id: nullable(uuid()), name: text(), imageUrl: text() }),
        "As ordered: name and image are kept after the product is edited or deleted (then _id is null)",
      ),
      quantity: integer({ minimum: 1 }),
      price: number({ minimum: 0, description: "Unit price when ordered" }),
    }),
  ),
  address: addressShape,
  totalPrice: number({ minimum: 0 }),
  status: oneOf(ORDER_STATUSES),
  paymentMethod: oneOf([PAYMENT_METHOD]),
  createdAt: dateTime(),
  updatedAt: dateTime(),
});
export type PublicOrder = ShapeOf<typeof orderShape>;

/** Beside a list of orders: how many match, and what they come to (Cancelled orders left out). */
export const orderListMetaShape = object({ count: integer({ minimum: 0 }), totalAmount: number({ minimum: 0 }) });
export type OrderListMeta = ShapeOf<typeof orderListMetaShape>;
