import { addressShape } from "../shared/address.shape";
import {
  arrayOf,
  boolean,
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
import { productImagesShape } from "../shared/product-images.shape";
import { COURIER_NAMES } from "../../providers/couriers/courier-providers.shared";
import { PARCEL_STAGES } from "../../providers/couriers/courier-provider.shared";
import { PAYMENT_METHOD_NAMES } from "../../providers/payment-methods/payment-methods.shared";
import { ORDER_STATUSES, OUTCOME_KINDS, PAYMENT_STATUSES, RETURN_TO_SENDER_REASONS } from "./order-values.shared";
import { returnShape } from "./return.shape";
import { CONFIRMATION_CHANNELS, CONFIRMATION_STATUSES, CONFIRMERS, MESSAGE_LANGUAGES } from "./order-values.shared";

/** The discount an order took: the code as applied and the amount in rupees; null without one. */
export const orderDiscountShape = described(
  nullable(object({ code: text(), amount: number({ minimum: 0 }) })),
  "The discount code applied at checkout and the amount taken off the goods; null without one",
);

/** An order as its customer and the admins read it (docs/product.md, "Orders"). */
export const orderShape = object({
  _id: uuid(),
  user: object({ _id: nullable(uuid()), name: text(), email: email() }),
  items: arrayOf(
    object({
      product: described(
        object({ _id: nullable(uuid()), name: text(), imageUrl: text(), images: productImagesShape }),
        "As ordered: name and image (with the photo's variants, if it had one) are kept after the product is edited or deleted (then _id is null)",
      ),
      quantity: integer({ minimum: 1 }),
      price: number({ minimum: 0, description: "Unit price when ordered" }),
    }),
  ),
  address: addressShape,
  phone: described(
    nullable(text({ pattern: "^\\+923[0-9]{9}$" })),
    "The receiver's Pakistani mobile number as +923XXXXXXXXX; null when the order was placed without one",
  ),
  subtotal: described(number({ minimum: 0 }), "The goods at their unit prices, before any discount"),
  discount: orderDiscountShape,
  totalPrice: described(
    number({ minimum: 0 }),
    "What the customer pays: subtotal less the discount and any discount for paying in advance (payment.discount); delivery is free",
  ),
  status: oneOf(ORDER_STATUSES),
  paymentMethod: described(oneOf(PAYMENT_METHOD_NAMES), "How the order is paid: one of the store's payment methods"),
  payment: described(
    object({
      method: oneOf(PAYMENT_METHOD_NAMES),
      status: described(
        oneOf(PAYMENT_STATUSES),
        "on-delivery for cash on delivery; a bank transfer is awaiting, then submitted (the customer sent its reference), then verified or rejected by an admin. Only a verified transfer ships",
      ),
      discount: described(
        nullable(number({ minimum: 0 })),
        "What the store's discount for paying in advance took off the total (rupees); null without one",
      ),
      reference: described(nullable(text()), "The transaction reference the customer sent; null until then"),
      submittedAt: described(nullable(dateTime()), "When the customer last sent the reference; null until then"),
      verifiedAmount: described(
        nullable(number({ minimum: 0 })),
        "The amount verified as received; null until verified",
      ),
      verifiedAt: described(nullable(dateTime()), "When an admin verified the payment; null until then"),
      rejectedReason: described(
        nullable(text()),
        "Why an admin rejected the last reference (the customer may send another); null otherwise",
      ),
      screenshot: described(
        boolean(),
        "Whether the customer attached a screenshot of the transfer with the reference. The image itself is private: the order's owner and admins see it on the store's pages, signed in",
      ),
    }),
    "How the order is paid and where its payment stands",
  ),
  courier: described(
    nullable(oneOf(COURIER_NAMES)),
    "Set when the order is shipped (null until then); kept afterwards",
  ),
  trackingNumber: described(
    nullable(text({ pattern: "^[A-Za-z0-9-]{4,40}$" })),
    "The courier's tracking number, set when the order is shipped (null until then); kept afterwards",
  ),
  confirmedAt: described(
    nullable(dateTime()),
    "When the order was confirmed, by the customer (message or link) or by an admin by phone; null until then",
  ),
  confirmation: described(
    object({
      status: oneOf(CONFIRMATION_STATUSES),
      by: described(
        nullable(oneOf(CONFIRMERS)),
        "Who answered: the customer, or an admin who phoned them; null while pending",
      ),
      channel: described(
        nullable(oneOf(CONFIRMATION_CHANNELS)),
        "How: a WhatsApp button, an SMS reply, the confirmation link's page, or the admin's call; null while pending",
      ),
      at: described(nullable(dateTime()), "When the answer came; null while pending"),
    }),
    "The customer's answer to the store's confirmation message (cancelled: the customer cancelled from it). Every confirmation also sets confirmedAt",
  ),
  language: described(
    oneOf(MESSAGE_LANGUAGES),
    "The language of the order's messages and confirmation page: ur (Urdu) or en (English)",
  ),
  cancelReason: described(
    nullable(text()),
    'Why the store cancelled the order ("Not confirmed": nobody answered its confirmation in time); null otherwise',
  ),
  deliveredAt: described(
    nullable(dateTime()),
    "When the order became Delivered (returns are accepted for 7 days from it); null while it is not",
  ),
  outcome: described(
    nullable(
      object({
        kind: described(oneOf(OUTCOME_KINDS), "returned: the courier brought the parcel back to the store"),
        reason: oneOf(RETURN_TO_SENDER_REASONS),
        at: described(dateTime(), "When the return to sender was recorded (the order became Cancelled then)"),
        receivedBackAt: described(
          nullable(dateTime()),
          "When the store had the parcel back and its watches went back in stock; null until then",
        ),
      }),
    ),
    "What became of a shipped parcel that was not delivered (the order is Cancelled); null otherwise",
  ),
  returns: described(arrayOf(returnShape), "The order's returns, oldest first (an empty array when none)"),
  shipment: described(
    nullable(
      object({
        courier: oneOf(["PostEx", "Leopards"] as const),
        trackingNumber: text(),
        events: described(
          arrayOf(
            object({
              at: described(
                dateTime(),
                "When the courier says it happened (when the store first saw it, if the courier gave no time)",
              ),
              status: described(
                nullable(oneOf(PARCEL_STAGES)),
                "The store's reading of the courier's status; null for words the store does not know (kept, not acted on)",
              ),
              code: described(nullable(text()), "The courier's status code, when it gives one (PostEx)"),
              text: described(text(), "The courier's own words"),
              reason: described(
                nullable(text()),
                "Why a delivery attempt failed or the parcel comes back, as the courier said",
              ),
            }),
          ),
          "The parcel's events as its courier reported them, oldest first",
        ),
        payment: described(
          nullable(
            object({
              paid: described(boolean(), "Whether the courier has paid the collected cash over to the store"),
              paidOn: described(nullable(text()), "The payment's date as the courier gives it"),
              receipt: described(nullable(text()), "The courier's receipt (PostEx CPR) or cheque number"),
            }),
          ),
          "For a delivered cash-on-delivery parcel, what the courier says of its payment; null until it was asked",
        ),
      }),
    ),
    "The parcel booked through a courier's API (PostEx, Leopards) and what the courier reported of it; null without one (a typed tracking number has none)",
  ),
  createdAt: dateTime(),
  updatedAt: dateTime(),
});
export type PublicOrder = ShapeOf<typeof orderShape>;
/** The parcel booked through a courier's API, as an order shows it (the fulfilment module reads it). */
export type OrderShipment = NonNullable<PublicOrder["shipment"]>;

/** Beside a list of orders: how many match, and what they come to (Cancelled orders left out). */
export const orderListMetaShape = object({ count: integer({ minimum: 0 }), totalAmount: number({ minimum: 0 }) });
export type OrderListMeta = ShapeOf<typeof orderListMetaShape>;
