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
  bankAccountTitle: described(
    nullable(text()),
    "The store's bank account title for advance payments; null: not set (bank transfer is offered only when the title, bank and IBAN are set)",
  ),
  bankName: described(nullable(text()), "The bank of the store's account; null: not set"),
  iban: described(
    nullable(text({ pattern: "^PK[0-9]{2}[A-Z]{4}[0-9]{16}$" })),
    "The account's IBAN (PK, 2 digits, 4 letters, 16 digits; spaces and small letters are taken on PUT); null: not set",
  ),
  raastId: described(
    nullable(text({ pattern: "^\\+923[0-9]{9}$" })),
    "The store's Raast ID, a mobile number as +923XXXXXXXXX (any accepted form on PUT); null: not set",
  ),
  bankTransferDiscountPercent: described(
    nullable(number({ minimum: 0.01, maximum: 50 })),
    "Percent taken off an order paid by bank transfer (after any discount code); null: none (the default)",
  ),
  unpaidTransferHours: described(
    nullable(integer({ minimum: 1, maximum: 720 })),
    "A bank-transfer order still unpaid (awaiting or rejected) this many hours after it was placed is cancelled, its stock and discount code's use given back; null: never (default 48)",
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
