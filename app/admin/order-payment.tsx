import { Form } from "react-router";
import {
  PAYMENT_REJECT_REASON_MAX,
  PAYMENT_STATUS_LABELS,
  paymentScreenshotUrl,
} from "../../server/modules/orders/order-values.shared";
import { formatStoreDateTime } from "../../server/modules/shared/store-dates.shared";
import type { PublicOrder } from "../../server/modules/orders/order.shape";
import { formatRupees } from "../lib/money";

/**
 * The order's payment for the admin (docs/product.md, "Paying in advance"): for a bank transfer,
 * where it stands, the customer's reference and screenshot (a thumbnail linking to the full image,
 * to check against the account's statement), and the forms that verify it (the order may then
 * ship) or reject it with a reason the customer reads. Plain forms to the order's page.
 */
export function AdminOrderPayment({ order }: { order: PublicOrder }) {
  const { payment } = order;
  if (payment.status === "on-delivery") return <>{order.paymentMethod}</>;
  const open = order.status !== "Cancelled" && payment.status !== "verified";
  return (
    <div className="order-payment">
      <p>
        {`${order.paymentMethod}: ${PAYMENT_STATUS_LABELS[payment.status]}`}
        {payment.reference ? `. Reference ${payment.reference}` : ""}
        {payment.submittedAt ? `, sent ${formatStoreDateTime(payment.submittedAt)}` : ""}
        {payment.verifiedAt && payment.verifiedAmount !== null
          ? `. ${formatRupees(payment.verifiedAmount)} received, verified ${formatStoreDateTime(payment.verifiedAt)}`
          : ""}
        {payment.rejectedReason ? `. Rejected: ${payment.rejectedReason}` : ""}
      </p>
      {payment.screenshot ? (
        <a href={paymentScreenshotUrl(order._id)} className="order-payment__screenshot">
          <img
            src={paymentScreenshotUrl(order._id, "thumbnail")}
            alt="The customer's screenshot of the transfer (opens the full image)"
            width={120}
            loading="lazy"
          />
        </a>
      ) : null}
      {open ? (
        <>
          <Form method="post" action={`/admin/orders/${order._id}`} className="inline-form">
            <input type="hidden" name="intent" value="payment-verified" />
            <button type="submit" className="button">
              {`Verify payment of ${formatRupees(order.totalPrice)}`}
            </button>
          </Form>
          {payment.status === "submitted" ? (
            <Form method="post" action={`/admin/orders/${order._id}`} className="inline-form">
              <input type="hidden" name="intent" value="payment-rejected" />
              <label htmlFor={`payment-reason-${order._id}`}>Reason (the customer reads it)</label>{" "}
              <input
                id={`payment-reason-${order._id}`}
                name="reason"
                type="text"
                required
                maxLength={PAYMENT_REJECT_REASON_MAX}
              />{" "}
              <button type="submit" className="button button--ghost">
                Reject payment
              </button>
            </Form>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
