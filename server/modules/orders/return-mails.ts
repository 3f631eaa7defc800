import { renderMail, siteLink, type MailBlock, type MailContext } from "../mail/mail-layout";
import type { MailToQueue } from "../mail/outbox";
import type { MailKind } from "../mail/outbox-values.shared";
import { formatRupees } from "../shared/money.shared";
import { shortOrderId } from "./order-values.shared";
import type { RefundMethod, ReturnReason, ReturnStatus } from "./return-values.shared";

/** What the return mails say about a return (docs/product.md, "Order mails"). */
export type MailReturn = {
  orderId: string;
  customerName: string;
  customerEmail: string;
  items: { name: string; quantity: number }[];
  reason: ReturnReason;
  /** The customer's own words, and the store's reason for a rejection: plain text, escaped by the layout. */
  note: string | null;
  rejectionReason: string | null;
  refundAmount: number;
  refund: { method: RefundMethod; reference: string | null } | null;
};

/**
 * To the customer, for each step of a return: requested, approved, rejected (with the store's
 * reason), received with the refund (amount and method). Written in the transaction of the change.
 */
export function returnMail(context: MailContext, orderReturn: MailReturn, status: ReturnStatus): MailToQueue {
  const number = `#${shortOrderId(orderReturn.orderId)}`;
  const greeting = `Dear ${orderReturn.customerName},`;
  const watches: MailBlock = {
    kind: "table",
    rows: orderReturn.items.map((item) => [item.name, `× ${item.quantity}`]),
  };
  const link: MailBlock = {
    kind: "link",
    label: "View your order",
    url: siteLink(context, `/my-orders/${orderReturn.orderId}`),
  };
  const refund = formatRupees(orderReturn.refundAmount);
  const mail = (kind: MailKind, subject: string, blocks: MailBlock[]): MailToQueue => ({
    kind,
    to: orderReturn.customerEmail,
    ...renderMail(context, { subject, greeting, blocks: [...blocks, link] }),
  });

  switch (status) {
    case "Requested":
      return mail("return-requested", `We received your return request for order ${number}`, [
        { kind: "paragraph", text: `We received your request to return these watches of order ${number}:` },
        watches,
        {
          kind: "paragraph",
          text: `Reason: ${orderReturn.reason}${orderReturn.note ? ` ("${orderReturn.note}")` : ""}`,
        },
        {
          kind: "paragraph",
          text: `We will look at it and mail you our answer. If we accept it, your refund will be ${refund}.`,
        },
      ]);
    case "Approved":
      return mail("return-approved", `Your return for order ${number} is approved`, [
        { kind: "paragraph", text: `We approved your return of these watches of order ${number}:` },
        watches,
        {
          kind: "paragraph",
          text: `We will arrange the pick-up and tell you how to pack the watch. Please keep it unworn, in its original packaging, with its tags, certificate and warranty card. Once it reaches us we refund ${refund}.`,
        },
      ]);
    case "Rejected":
      return mail("return-rejected", `Your return for order ${number} was not accepted`, [
        { kind: "paragraph", text: `We could not accept your return of these watches of order ${number}:` },
        watches,
        ...(orderReturn.rejectionReason
          ? [{ kind: "paragraph", text: `Reason: ${orderReturn.rejectionReason}` } as const]
          : []),
        { kind: "paragraph", text: "If you have questions, reply to this mail or contact us." },
      ]);
    case "Received": {
      const method = orderReturn.refund
        ? `${orderReturn.refund.method}${orderReturn.refund.reference ? ` (reference ${orderReturn.refund.reference})` : ""}`
        : "the method we agreed with you";
      return mail("return-refunded", `Your refund of ${refund} for order ${number}`, [
        { kind: "paragraph", text: `We received the watches you returned from order ${number}:` },
        watches,
        { kind: "paragraph", text: `We refunded ${refund} by ${method}.` },
      ]);
    }
  }
}
