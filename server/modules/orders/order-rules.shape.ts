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
import { COD_REFUSAL_CODES, COD_RULE_NAMES } from "./order-rules.shared";

/** The merchant's cash-on-delivery rules as GET and PUT /api/v1/settings/orders answer them. */
export const orderSettingsShape = object({
  blockAfterReturns: described(
    nullable(integer({ minimum: 1 })),
    "A phone is refused cash on delivery once it has this many orders returned to sender; null: off (default 2)",
  ),
  firstTimeCodLimit: described(
    nullable(number({ minimum: 0 })),
    "The most, in rupees, a phone without a delivered order (without a phone: an account) may order on cash on delivery; null: off (default 50000)",
  ),
  codLimit: described(
    nullable(number({ minimum: 0 })),
    "The most, in rupees, anyone may order on cash on delivery; null: off (the default)",
  ),
  openCodOrders: described(
    nullable(integer({ minimum: 1 })),
    "Open (Pending or Shipped) cash-on-delivery orders a phone may have, the new one included; null: off (default 2)",
  ),
  parcelShippingCost: described(
    nullable(number({ minimum: 0 })),
    "What a parcel costs to send one way, on average, in rupees: the deliveries report prices each return to sender at twice it; null: not set",
  ),
  blocklist: described(
    arrayOf(
      object({
        _id: uuid(),
        kind: oneOf(["phone", "email"]),
        value: described(text(), "A mobile number as +923XXXXXXXXX, or an email in lower case"),
        note: text(),
        addedBy: described(text(), "The name of the admin who added it"),
        createdAt: dateTime(),
      }),
    ),
    "Phones and emails refused cash on delivery, newest first",
  ),
  refusals: described(
    object({
      count: integer({ minimum: 0 }),
      latest: arrayOf(
        object({
          _id: text(),
          code: oneOf(COD_REFUSAL_CODES),
          rule: oneOf(Object.values(COD_RULE_NAMES)),
          message: text(),
          phone: nullable(text()),
          email: text(),
          amount: number({ minimum: 0 }),
          createdAt: dateTime(),
        }),
      ),
    }),
    "How many checkouts the rules refused, and the latest 20 (newest first)",
  ),
});
export type PublicOrderSettings = ShapeOf<typeof orderSettingsShape>;
