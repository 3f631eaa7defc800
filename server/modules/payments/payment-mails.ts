import { renderMail, siteLink, type MailContext } from "../mail/mail-layout";
import type { MailToQueue } from "../mail/outbox";
import { formatRupees } from "../shared/money.shared";
import { shortOrderId } from "../orders/order-values.shared";

/** What the payment mails say about an order (docs/product.md, "Paying in advance"). */
type PaymentMailOrder = { id: string; customerName: string; customerEmail: string; totalPrice: number };

/** To the store, when the customer sends a transfer's reference: an admin checks the account and verifies it. */
export function paymentSubmittedMail(context: MailContext, order: PaymentMailOrder, reference: string): MailToQueue {
  const number = `#${shortOrderId(order.id)}`;
  return {
    kind: "payment-submitted",
    to: context.store.email,
    ...renderMail(context, {
      subject: `Order ${number}: transfer reference ${reference} to verify`,
      blocks: [
        {
          kind: "paragraph",
          text: `${order.customerName} (${order.customerEmail}) says they sent ${formatRupees(order.totalPrice)} for order ${number}, reference ${reference}. Check the account, then verify or reject the payment on the order's page: the order ships only once it is verified.`,
        },
        { kind: "link", label: `Open order ${number}`, url: siteLink(context, `/admin/orders/${order.id}`) },
      ],
    }),
  };
}

/** To the customer, when an admin verified the transfer: the order will ship. */
export function paymentVerifiedMail(context: MailContext, order: PaymentMailOrder, amount: number): MailToQueue {
  const number = `#${shortOrderId(order.id)}`;
  return {
    kind: "payment-verified",
    to: order.customerEmail,
    ...renderMail(context, {
      subject: `We received your payment for order ${number}`,
      greeting: `Dear ${order.customerName},`,
      blocks: [
        {
          kind: "paragraph",
          text: `We received your payment of ${formatRupees(amount)} for order ${number}. We are preparing it, and mail you the courier's tracking number once it ships. There is nothing to pay at the door.`,
        },
        { kind: "link", label: "View your order", url: siteLink(context, `/my-orders/${order.id}`) },
      ],
    }),
  };
}

/** To the customer, when an admin could not find the transfer: they may send the right reference. */
export function paymentRejectedMail(context: MailContext, order: PaymentMailOrder, reason: string): MailToQueue {
  const number = `#${shortOrderId(order.id)}`;
  return {
    kind: "payment-rejected",
    to: order.customerEmail,
    ...renderMail(context, {
      subject: `We could not verify your payment for order ${number}`,
      greeting: `Dear ${order.customerName},`,
      blocks: [
        {
          kind: "paragraph",
          text: `We could not verify the transfer for order ${number}: ${reason}. Please check that you sent ${formatRupees(order.totalPrice)} to our account, then send the transaction reference again on your order's page.`,
        },
        { kind: "link", label: "View your order", url: siteLink(context, `/my-orders/${order.id}`) },
      ],
    }),
  };
}
