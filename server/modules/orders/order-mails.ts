import { renderMail, siteLink, type MailBlock, type MailContext } from "../mail/mail-layout";
import type { MailToQueue } from "../mail/outbox";
import { formatRupees } from "../shared/money.shared";
import { formatPakistaniMobile } from "../shared/phone.shared";
import { RETURN_WINDOW_DAYS } from "./return-values.shared";
import type { Courier } from "../../providers/couriers/courier-providers.shared";
import { trackingPageOf } from "../../providers/couriers/courier-tracking.shared";
import { paymentMethodNamed } from "../../providers/payment-methods/payment-methods.shared";
import { CANCEL_WINDOW_HOURS, shortOrderId } from "./order-values.shared";

/** What the order mails say about an order (docs/product.md, "Order mails"). */
export type MailOrder = {
  id: string;
  customerName: string;
  customerEmail: string;
  items: { name: string; quantity: number; unitPrice: number }[];
  /** What the items come to before the discount, and the discount, when the order took a code. */
  subtotal?: number;
  discount?: { code: string; amount: number } | null;
  /** What the store's discount for paying in advance took off, when it did. */
  paymentDiscount?: number | null;
  totalPrice: number;
  address: { street: string; city: string; state: string; zipCode: string; country: string };
  phone: string | null;
  /** The payment method's name (server/providers/payment-methods/). */
  paymentMethod: string;
  courier?: Courier | null;
  trackingNumber?: string | null;
};

/**
 * The items and their prices; with a discount code, the subtotal and the discount's line as the
 * pages show them (docs/product.md, "Discount codes"), then the total.
 */
function itemsTable(order: MailOrder): MailBlock {
  const rows: [string, string][] = order.items.map((item) => [
    `${item.name} × ${item.quantity}`,
    formatRupees((Math.round(item.unitPrice * 100) * item.quantity) / 100),
  ]);
  if (order.discount || order.paymentDiscount) {
    rows.push([
      "Subtotal",
      formatRupees(order.subtotal ?? order.totalPrice + (order.discount?.amount ?? 0) + (order.paymentDiscount ?? 0)),
    ]);
  }
  if (order.discount) rows.push([`Discount (${order.discount.code})`, `−${formatRupees(order.discount.amount)}`]);
  if (order.paymentDiscount) {
    rows.push(["Discount for paying in advance", `−${formatRupees(order.paymentDiscount)}`]);
  }
  return { kind: "table", rows, total: ["Total (delivery free)", formatRupees(order.totalPrice)] };
}

function addressLines(order: MailOrder): string[] {
  const { street, city, state, zipCode, country } = order.address;
  return [
    order.customerName,
    street,
    [city, `${state} ${zipCode}`.trim()].filter(Boolean).join(", "),
    country,
    ...(order.phone ? [`Mobile: ${formatPakistaniMobile(order.phone)}`] : []),
  ].filter(Boolean);
}

/** To the customer, when the order is placed (page or API). */
export function orderPlacedMail(context: MailContext, order: MailOrder): MailToQueue {
  const number = `#${shortOrderId(order.id)}`;
  const payment = paymentMethodNamed(order.paymentMethod);
  // An order paid in advance is confirmed by its payment (docs/product.md, "An order's life").
  const next = payment.paidBeforeShipping
    ? "We ship your order as soon as your payment reaches us."
    : order.phone
      ? `We will ask you on ${formatPakistaniMobile(order.phone)} to confirm your order before we ship it.`
      : "We will contact you to confirm your order before we ship it.";
  return {
    kind: "order-placed",
    to: order.customerEmail,
    ...renderMail(context, {
      subject: `Your ${context.store.name} order ${number} is placed`,
      greeting: `Dear ${order.customerName},`,
      blocks: [
        { kind: "heading", text: `Thank you for your order ${number}` },
        { kind: "paragraph", text: `Order number: ${number}` },
        itemsTable(order),
        {
          kind: "paragraph",
          text: `Payment: ${payment.label}. ${payment.howToPay(formatRupees(order.totalPrice))}`,
        },
        { kind: "paragraph", text: "Delivery address:" },
        { kind: "lines", lines: addressLines(order) },
        { kind: "heading", text: "What happens next" },
        {
          kind: "paragraph",
          text: `${next} Once it is with the courier we mail you the courier's name and tracking number. Delivery takes 3-5 business days to major cities and 5-7 to other areas.`,
        },
        {
          kind: "paragraph",
          text: `Changed your mind? You can cancel the order yourself under My Orders within ${CANCEL_WINDOW_HOURS} hours of ordering, while it is pending.`,
        },
        { kind: "link", label: "View your order", url: siteLink(context, `/my-orders/${order.id}`) },
      ],
    }),
  };
}

/** To the store (STORE_EMAIL), for each new order: short, with a link to the admin's order page. */
export function newOrderMail(context: MailContext, order: MailOrder): MailToQueue {
  const number = `#${shortOrderId(order.id)}`;
  const units = order.items.reduce((sum, item) => sum + item.quantity, 0);
  return {
    kind: "new-order",
    to: context.store.email,
    ...renderMail(context, {
      subject: `New order ${number}: ${formatRupees(order.totalPrice)} from ${order.customerName}`,
      blocks: [
        {
          kind: "paragraph",
          text: `${order.customerName} (${order.customerEmail}${order.phone ? `, ${formatPakistaniMobile(order.phone)}` : ", no mobile number"}) ordered ${units} ${units === 1 ? "watch" : "watches"} for ${formatRupees(order.totalPrice)}, ${paymentMethodNamed(order.paymentMethod).label.toLowerCase()}, to ${order.address.city || "an address without a city"}.`,
        },
        itemsTable(order),
        { kind: "link", label: `Open order ${number}`, url: siteLink(context, `/admin/orders/${order.id}`) },
      ],
    }),
  };
}

type StatusMailOrder = Pick<MailOrder, "id" | "customerName" | "customerEmail" | "courier" | "trackingNumber"> & {
  /** The payment method's name: an order paid in advance has no cash to keep ready. */
  paymentMethod?: string;
};

/** To the customer when an order is Shipped, Delivered or Cancelled (by the store or by them). */
export function orderStatusMail(
  context: MailContext,
  order: StatusMailOrder,
  status: "Shipped" | "Delivered" | "Cancelled",
  options: {
    byCustomer?: boolean;
    notConfirmed?: boolean;
    notPaid?: boolean;
    /** The money the store received for a cancelled order, which it now owes back (rupees). */
    refund?: number | null;
  } = {},
): MailToQueue {
  const number = `#${shortOrderId(order.id)}`;
  const link = { kind: "link", label: "View your order", url: siteLink(context, `/my-orders/${order.id}`) } as const;
  const greeting = `Dear ${order.customerName},`;
  if (status === "Shipped") {
    const courier = order.courier ? ` with ${order.courier}` : "";
    const blocks: MailBlock[] = [{ kind: "paragraph", text: `Your order ${number} is on its way${courier}.` }];
    const trackingPage = trackingPageOf(order.courier ?? null, order.trackingNumber ?? null);
    if (order.trackingNumber && trackingPage) {
      blocks.push(
        { kind: "paragraph", text: `Tracking number: ${order.trackingNumber}.` },
        { kind: "link", label: `Follow your parcel on the ${order.courier} website`, url: trackingPage },
      );
    } else if (order.trackingNumber) {
      blocks.push({
        kind: "paragraph",
        text: `Tracking number: ${order.trackingNumber}. Enter it on ${order.courier && order.courier !== "Other" ? `the ${order.courier}` : "the courier's"} website to follow your parcel.`,
      });
    }
    const paidInAdvance = order.paymentMethod ? paymentMethodNamed(order.paymentMethod).paidBeforeShipping : false;
    blocks.push(
      {
        kind: "paragraph",
        text: paidInAdvance
          ? "You paid in advance: there is nothing to pay the courier."
          : "Please keep the cash ready for the courier.",
      },
      link,
    );
    return {
      kind: "order-shipped",
      to: order.customerEmail,
      ...renderMail(context, { subject: `Your order ${number} has shipped`, greeting, blocks }),
    };
  }
  if (status === "Delivered") {
    return {
      kind: "order-delivered",
      to: order.customerEmail,
      ...renderMail(context, {
        subject: `Your order ${number} was delivered`,
        greeting,
        blocks: [
          { kind: "paragraph", text: `Your order ${number} was delivered. We hope you enjoy your watch.` },
          {
            kind: "paragraph",
            text: `You may return it within ${RETURN_WINDOW_DAYS} days of delivery if it is unworn and in its original packaging: open your order below and press Request a return.`,
          },
          link,
        ],
      }),
    };
  }
  // With the customer's money in hand, a cancellation is a refund to make, never "nothing to pay".
  const nothingOwed = options.refund
    ? `We received ${formatRupees(options.refund)} for it and will refund it to you within 5-7 business days; we contact you to agree how.`
    : "Nothing will be sent and there is nothing to pay.";
  return {
    kind: "order-cancelled",
    to: order.customerEmail,
    ...renderMail(context, {
      subject: `Your order ${number} was cancelled`,
      greeting,
      blocks: [
        {
          kind: "paragraph",
          text: options.byCustomer
            ? `You cancelled your order ${number}, as you asked. ${nothingOwed}`
            : options.notConfirmed
              ? `We cancelled your order ${number} because it was not confirmed in time. ${nothingOwed} If you still want it, you are welcome to order again.`
              : options.notPaid
                ? `We cancelled your order ${number} because its payment did not reach us in time. Nothing will be sent. If you did pay, please reply with the transaction reference and we will sort it out; if you still want the watch, you are welcome to order again.`
                : `We cancelled your order ${number}. ${nothingOwed} If you did not expect this, please contact us.`,
        },
        link,
      ],
    }),
  };
}

/** To the store, when a customer cancels their own order: it must not be packed or shipped. */
export function cancelledByCustomerMail(
  context: MailContext,
  order: StatusMailOrder,
  options: { refund?: number | null } = {},
): MailToQueue {
  const number = `#${shortOrderId(order.id)}`;
  const refund = options.refund
    ? ` Its payment of ${formatRupees(options.refund)} was received: refund it to the customer and record the refund on the order's page.`
    : "";
  return {
    kind: "order-cancelled-by-customer",
    to: context.store.email,
    ...renderMail(context, {
      subject: `Order ${number} was cancelled by the customer`,
      blocks: [
        {
          kind: "paragraph",
          text: `${order.customerName} (${order.customerEmail}) cancelled order ${number}. Its watches are back in stock; do not ship it.${refund}`,
        },
        { kind: "link", label: `Open order ${number}`, url: siteLink(context, `/admin/orders/${order.id}`) },
      ],
    }),
  };
}

/**
 * To the store, when a shipped parcel comes back unopened (docs/product.md, "Returned to sender"):
 * the customer is not mailed (they refused it, or could not be found), so the outbox keeps the
 * event. Its watches are back in stock only once the parcel is marked received back.
 */
export function returnedToSenderMail(
  context: MailContext,
  order: Pick<MailOrder, "id" | "customerName" | "customerEmail" | "phone">,
  reason: string,
): MailToQueue {
  const number = `#${shortOrderId(order.id)}`;
  return {
    kind: "order-returned-to-sender",
    to: context.store.email,
    ...renderMail(context, {
      subject: `Order ${number} was returned to sender: ${reason}`,
      blocks: [
        {
          kind: "paragraph",
          text: `The parcel of order ${number} for ${order.customerName} (${order.customerEmail}${order.phone ? `, ${formatPakistaniMobile(order.phone)}` : ""}) is coming back: ${reason}. The order is cancelled. Mark it received back when the parcel arrives, to put its watches back in stock.`,
        },
        { kind: "link", label: `Open order ${number}`, url: siteLink(context, `/admin/orders/${order.id}`) },
      ],
    }),
  };
}

/**
 * To the customer when the courier tried to deliver and could not, saying why as the courier did
 * (server/flows/courier-sync.ts): they can be ready for the next try, or call the store.
 */
export function deliveryAttemptMail(
  context: MailContext,
  order: Pick<MailOrder, "id" | "customerName" | "customerEmail"> & { courier: string; trackingNumber: string },
  reason: string,
  /** What the courier collects at the door (0: paid in advance). */
  collect: number,
): MailToQueue {
  const number = `#${shortOrderId(order.id)}`;
  return {
    kind: "order-delivery-attempt",
    to: order.customerEmail,
    ...renderMail(context, {
      subject: `${order.courier} could not deliver your order ${number}`,
      greeting: `Dear ${order.customerName},`,
      blocks: [
        {
          kind: "paragraph",
          text: `${order.courier} tried to deliver your order ${number} (tracking number ${order.trackingNumber}) but could not: ${reason}.`,
        },
        {
          kind: "paragraph",
          text:
            collect > 0
              ? `The courier will try again. Please keep your phone on and ${formatRupees(collect)} ready, or reply to this mail if anything needs to change.`
              : "The courier will try again. Please keep your phone on (the order is paid: there is nothing to pay the courier), or reply to this mail if anything needs to change.",
        },
        { kind: "link", label: "View your order", url: siteLink(context, `/my-orders/${order.id}`) },
      ],
    }),
  };
}
