import { Form, useLocation } from "react-router";
import { formatStoreDateTime } from "../../server/modules/shared/store-dates.shared";
import { shortOrderId } from "../../server/modules/orders/order-values.shared";
import type { DeskOrder } from "../../server/modules/order-life/order-desk";
import { NOT_CONFIRMED_REASON, isConfirmedByAnswer } from "../../server/modules/confirmation/order-confirmation.shared";
import { phoneRecordText } from "../../server/modules/confirmation/phone-record.shared";
import type { ConfirmationChannel } from "../../server/modules/orders/order-values.shared";

/** How an answer came, in the admin's words. */
export const CHANNEL_NAMES: Record<ConfirmationChannel | "file", string> = {
  whatsapp: "WhatsApp",
  sms: "SMS",
  link: "the confirmation link",
  phone: "phone",
  file: "file (no channel configured)",
};

/**
 * The order's confirmation (docs/product.md, "Confirming an order"): the customer's answer by
 * WhatsApp, SMS or the link, or the store's cancel when nobody answered; else "Confirmed by
 * phone": a Pending order not yet confirmed has the button; a confirmed one says who confirmed it
 * and when, and while it is Pending the confirmation can be undone. Plain forms answered by a redirect.
 */
export function OrderConfirmation({ order }: { order: DeskOrder }) {
  const location = useLocation();
  const returnTo = location.pathname + location.search;
  const short = shortOrderId(order._id);
  const hidden = (intent: string) => (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="orderId" value={order._id} />
      <input type="hidden" name="returnTo" value={returnTo} />
    </>
  );
  const channel = order.confirmation.channel ? CHANNEL_NAMES[order.confirmation.channel] : "";
  if (order.confirmation.status === "confirmed" && order.confirmation.by === "customer") {
    return (
      <div className="confirmation">
        <span className="confirmation__badge">{`Confirmed by the customer (${channel})`}</span>
        <span className="muted">{formatStoreDateTime(order.confirmation.at!)}</span>
      </div>
    );
  }
  if (order.confirmation.status === "cancelled") {
    return (
      <div className="confirmation">
        <span className="confirmation__missing">{`Cancelled by the customer (${channel})`}</span>
        <span className="muted">{formatStoreDateTime(order.confirmation.at!)}</span>
      </div>
    );
  }
  if (order.cancelReason === NOT_CONFIRMED_REASON) {
    return <span className="confirmation__missing">Not answered: cancelled by the store</span>;
  }
  if (order.confirmedAt) {
    return (
      <div className="confirmation">
        <span className="confirmation__badge">Confirmed by phone</span>
        <span className="muted">{`by ${order.confirmedBy ?? "an admin"}, ${formatStoreDateTime(order.confirmedAt)}`}</span>
        {order.status === "Pending" ? (
          <Form method="post" action="/admin/orders" preventScrollReset>
            {hidden("unconfirm")}
            <button type="submit" className="button button--small button--ghost">
              Undo<span className="visually-hidden">{` the confirmation of order #${short}`}</span>
            </button>
          </Form>
        ) : null}
      </div>
    );
  }
  if (!isConfirmedByAnswer({ paymentStatus: order.payment.status })) {
    return order.payment.status === "verified" ? (
      <span className="confirmation__badge">Confirmed by its verified payment</span>
    ) : (
      <span className="muted">Confirmed once its payment is verified</span>
    );
  }
  if (order.status !== "Pending") return <span className="muted">Not confirmed by phone</span>;
  return (
    <div className="confirmation">
      <span className="confirmation__missing">Not confirmed yet</span>
      <Form method="post" action="/admin/orders" preventScrollReset>
        {hidden("confirm")}
        <button type="submit" className="button button--small">
          Confirmed by phone<span className="visually-hidden">{`: order #${short}`}</span>
        </button>
      </Form>
    </div>
  );
}

/**
 * The customer's record with the store, counted by PostgreSQL: the account's orders delivered and
 * cancelled, then the phone's record across accounts and guests (docs/product.md, "Each phone's record").
 */
export function CustomerRecord({ order }: { order: DeskOrder }) {
  const { delivered, cancelled } = order.customerRecord;
  return (
    <span className="customer-record">
      {`${delivered} delivered, ${cancelled} cancelled`}
      {order.phoneRecord ? (
        <span className="phone-record">{` · This phone: ${phoneRecordText(order.phoneRecord)}`}</span>
      ) : null}
    </span>
  );
}
