import { Model } from "objection";
import { BaseModel } from "../../db/base.model";
import { fromPaisa, toPaisa } from "../shared/money.shared";
import { OrderReturn } from "./order-return.model";
import type { ProductImage } from "../shared/product-images.shared";
import type { Courier } from "../../providers/couriers/courier-providers.shared";
import type { PaymentMethodName } from "../../providers/payment-methods/payment-methods.shared";
import type { OrderStatus, OutcomeKind, PaymentStatus, ReturnToSenderReason } from "./order-values.shared";
import type { OrderShipment, PublicOrder } from "./order.shape";
import {
  type ConfirmationChannel,
  type ConfirmationStatus,
  type Confirmer,
  type MessageLanguage,
} from "./order-values.shared";

/** A line of an order: a copy of what was sold (name, image, unit price), kept after product changes. */
export class OrderItem extends BaseModel {
  static tableName = "order_items";
  static jsonAttributes = ["productImages"];

  id!: string;
  orderId!: string;
  /** Null once the product was deleted; the copy stays. */
  productId!: string | null;
  productName!: string;
  productImageUrl!: string;
  /** The photo sold, if the product had one: referenced so that its files stay while the order shows them. */
  photoId!: string | null;
  productImages!: ProductImage[];
  quantity!: number;
  unitPrice!: number;
  position!: number;

  static modifiers = {
    /** Items in the order they were in the cart. */
    inCartOrder(query: ReturnType<typeof OrderItem.query>) {
      query.orderBy("position");
    },
  };
}

export class Order extends BaseModel {
  static tableName = "orders";

  id!: string;
  /** Null once the customer's account was deleted; name and email stay on the order. */
  userId!: string | null;
  customerName!: string;
  customerEmail!: string;
  street!: string;
  city!: string;
  state!: string;
  zipCode!: string;
  country!: string;
  totalPrice!: number;
  status!: OrderStatus;
  /** A payment method's name (server/providers/payment-methods/). */
  paymentMethod!: PaymentMethodName;
  idempotencyKey!: string | null;
  /** The receiver's mobile number, +923XXXXXXXXX; null on orders placed without one. */
  phone!: string | null;
  /** Set when the order is shipped, and kept when its status changes later. */
  courier!: Courier | null;
  trackingNumber!: string | null;
  /** Confirmed by phone: when, and by which admin (the name is a copy that outlives the account). */
  confirmedAt!: Date | null;
  confirmedBy!: string | null;
  confirmedByName!: string | null;
  /** The customer's answer to the confirmation, or the admin's call (docs/product.md, "Confirming an order"). */
  confirmationStatus!: ConfirmationStatus;
  confirmationBy!: Confirmer | null;
  confirmationChannel!: ConfirmationChannel | null;
  confirmationAt!: Date | null;
  /** The language of the order's messages and confirmation page. */
  language!: MessageLanguage;
  /** Why the store cancelled it ("Not confirmed"); null otherwise. */
  cancelReason!: string | null;
  /** The discount code applied at checkout (a copy of its text, as applied) and the amount it took off. */
  discountCodeId!: string | null;
  discountCode!: string | null;
  discountAmount!: number;
  /** When it became Delivered; null while it is not (docs/product.md, "Returns"). */
  deliveredAt!: Date | null;
  /** The parcel came back to the store unopened (docs/product.md, "Returned to sender"); null otherwise. */
  outcomeKind!: OutcomeKind | null;
  outcomeReason!: ReturnToSenderReason | null;
  outcomeAt!: Date | null;
  /** When the returned parcel was back on the shelf (its units back in stock); null until then. */
  receivedBackAt!: Date | null;
  /** The payment's status and, for a bank transfer, its reference and the admin's verdict (docs/product.md, "Paying in advance"). */
  paymentStatus!: PaymentStatus;
  paymentReference!: string | null;
  paymentSubmittedAt!: Date | null;
  paymentVerifiedAmount!: number | null;
  paymentVerifiedAt!: Date | null;
  paymentRejectedReason!: string | null;
  /** What the store's discount for paying in advance took off the total. */
  paymentDiscount!: number;
  /** The customer cancelled it themselves (My Orders): counted in their phone's record. */
  cancelledByCustomer!: boolean;
  createdAt!: Date;
  updatedAt!: Date;
  items?: OrderItem[];
  returns?: OrderReturn[];
  /** The booked parcel and its events, when read with them (order-life/orders-reading.ts); not a column. */
  shipment?: OrderShipment | null;
  /** Whether a screenshot of the transfer was sent, when read by readOrderRows (payment_screenshots); not a column. */
  hasPaymentScreenshot?: boolean;

  // Column names in camelCase: knexSnakeCaseMappers turns them into the table's snake_case.
  static relationMappings = () => ({
    items: {
      relation: Model.HasManyRelation,
      modelClass: OrderItem,
      join: { from: "orders.id", to: "order_items.orderId" },
    },
    returns: {
      relation: Model.HasManyRelation,
      modelClass: OrderReturn,
      join: { from: "orders.id", to: "order_returns.orderId" },
    },
  });

  static modifiers = {
    /** Newest first; the id breaks ties so that pages never repeat or skip an order. */
    newestFirst(query: ReturnType<typeof Order.query>) {
      query.orderBy([
        { column: "orders.createdAt", order: "desc" },
        { column: "orders.id", order: "desc" },
      ]);
    },
  };

  toPublic(): PublicOrder {
    // totalPrice is what the customer pays: the subtotal less the discount (docs/product.md,
    // "Discount codes"). Orders from before codes have no discount, so their subtotal is their total.
    const discountPaisa = toPaisa(this.discountAmount ?? 0);
    const paymentDiscountPaisa = toPaisa(this.paymentDiscount ?? 0);
    const iso = (date: Date | null | undefined) => (date ? new Date(date).toISOString() : null);
    // A row marked Delivered without the moment (written by hand) reads its last update, as the
    // migration that added the column filled in older ones.
    const deliveredAt = this.deliveredAt ?? (this.status === "Delivered" ? this.updatedAt : null);
    return {
      _id: this.id,
      user: { _id: this.userId, name: this.customerName, email: this.customerEmail },
      items: (this.items ?? []).map((item) => ({
        product: {
          _id: item.productId,
          name: item.productName,
          imageUrl: item.productImageUrl,
          images: item.productImages ?? [],
        },
        quantity: item.quantity,
        price: item.unitPrice,
      })),
      address: {
        street: this.street,
        city: this.city,
        state: this.state,
        zipCode: this.zipCode,
        country: this.country,
      },
      phone: this.phone ?? null,
      subtotal: fromPaisa(toPaisa(this.totalPrice) + discountPaisa + paymentDiscountPaisa),
      discount: this.discountCode ? { code: this.discountCode, amount: fromPaisa(discountPaisa) } : null,
      totalPrice: this.totalPrice,
      status: this.status,
      paymentMethod: this.paymentMethod,
      payment: {
        method: this.paymentMethod,
        status: this.paymentStatus ?? "on-delivery",
        discount: paymentDiscountPaisa > 0 ? fromPaisa(paymentDiscountPaisa) : null,
        reference: this.paymentReference ?? null,
        submittedAt: iso(this.paymentSubmittedAt),
        verifiedAmount: this.paymentVerifiedAmount === null ? null : Number(this.paymentVerifiedAmount),
        verifiedAt: iso(this.paymentVerifiedAt),
        rejectedReason: this.paymentRejectedReason ?? null,
        screenshot: this.hasPaymentScreenshot ?? false,
      },
      courier: this.courier ?? null,
      trackingNumber: this.trackingNumber ?? null,
      confirmedAt: this.confirmedAt ? new Date(this.confirmedAt).toISOString() : null,
      confirmation: {
        status: this.confirmationStatus ?? "pending",
        by: this.confirmationBy ?? null,
        channel: this.confirmationChannel ?? null,
        at: this.confirmationAt ? new Date(this.confirmationAt).toISOString() : null,
      },
      language: this.language ?? "ur",
      cancelReason: this.cancelReason ?? null,
      deliveredAt: deliveredAt ? new Date(deliveredAt).toISOString() : null,
      outcome:
        this.outcomeKind && this.outcomeReason && this.outcomeAt
          ? {
              kind: this.outcomeKind,
              reason: this.outcomeReason,
              at: new Date(this.outcomeAt).toISOString(),
              receivedBackAt: this.receivedBackAt ? new Date(this.receivedBackAt).toISOString() : null,
            }
          : null,
      returns: (this.returns ?? []).map((orderReturn) => orderReturn.toPublic()),
      shipment: this.shipment ?? null,
      createdAt: new Date(this.createdAt).toISOString(),
      updatedAt: new Date(this.updatedAt).toISOString(),
    };
  }
}
