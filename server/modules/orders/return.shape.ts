import {
  arrayOf,
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
import { REFUND_METHODS, RETURN_REASONS, RETURN_STATUSES } from "./return-values.shared";

/** A return as its customer and the admins read it (docs/product.md, "Returns"). */
export const returnShape = object({
  _id: uuid(),
  order: described(uuid(), "The id of the order returned"),
  items: arrayOf(
    object({
      product: described(
        object({ _id: nullable(uuid()), name: text() }),
        "As ordered: the name is kept after the product is edited or deleted (then _id is null)",
      ),
      quantity: integer({ minimum: 1 }),
      price: number({ minimum: 0, description: "Unit price when ordered" }),
    }),
  ),
  reason: oneOf(RETURN_REASONS),
  note: nullable(text({ maxLength: 500 })),
  status: described(
    oneOf(RETURN_STATUSES),
    "Requested → Approved or Rejected; Approved → Received (the stock comes back and the refund is recorded)",
  ),
  rejectionReason: described(nullable(text()), "Why the store rejected it (set with Rejected); null otherwise"),
  refundAmount: described(
    number({ minimum: 0 }),
    "What the customer paid for these items: unit price × quantity, less their share of the order's discount",
  ),
  refund: described(
    nullable(object({ method: oneOf(REFUND_METHODS), reference: nullable(text()) })),
    "How the refund was made, set with Received; null before",
  ),
  createdAt: dateTime(),
  updatedAt: dateTime(),
});
export type PublicReturn = ShapeOf<typeof returnShape>;
