import { Form } from "react-router";
import type { DeskOrder } from "../../server/modules/order-life/order-desk";
import {
  isConfirmedByAnswer,
  type OrderMessageKind,
  type OrderReplyRecord,
  type OrderTextRecord,
} from "../../server/modules/confirmation/order-confirmation.shared";
import { formatOrderDateTime } from "../orders/order-display";
import { CHANNEL_NAMES } from "./order-confirmation";

const KIND_NAMES: Record<OrderMessageKind, string> = {
  confirmation: "Confirmation",
  reminder: "Reminder",
  cancellation: "Cancellation",
  "payment-awaited": "Transfer to pay",
  "payment-verified": "Payment verified",
  "payment-rejected": "Payment rejected",
  "not-paid": "Cancelled unpaid",
  "delivery-attempt": "Delivery attempt",
};
const ACTION_NAMES = {
  confirmed: "Confirmed the order",
  cancelled: "Cancelled the order",
  none: "Nothing (not understood, or too late)",
} as const;

/** The latest thing that happened to a text, with when. */
function textProgress(text: OrderTextRecord): string {
  const at = text.readAt ?? text.deliveredAt ?? text.sentAt ?? text.failedAt;
  const status = text.status === "queued" && text.attempts > 0 ? `queued, ${text.attempts} failed tries` : text.status;
  return at ? `${status}, ${formatOrderDateTime(at)}` : status;
}

/**
 * The texts sent about an order and the customer's replies (docs/product.md, "Confirming an
 * order"), with "Send again" while the order waits for its answer.
 */
export function OrderTexts({
  order,
  texts,
  replies,
}: {
  order: DeskOrder;
  texts: OrderTextRecord[];
  replies: OrderReplyRecord[];
}) {
  const waiting =
    order.status === "Pending" &&
    order.confirmation.status === "pending" &&
    order.phone &&
    isConfirmedByAnswer({ paymentStatus: order.payment.status });
  return (
    <section className="section" aria-labelledby="order-texts">
      <h2 id="order-texts">Messages to the customer</h2>
      {texts.length === 0 ? (
        <p className="muted">No messages: the order has no mobile number.</p>
      ) : (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Message</th>
                <th scope="col">Channel</th>
                <th scope="col">Language</th>
                <th scope="col">Status</th>
                <th scope="col">Written</th>
              </tr>
            </thead>
            <tbody>
              {texts.map((text) => (
                <tr key={text.id}>
                  <td>{KIND_NAMES[text.kind]}</td>
                  <td>{CHANNEL_NAMES[text.channel]}</td>
                  <td>{text.language === "ur" ? "Urdu" : "English"}</td>
                  <td>
                    {textProgress(text)}
                    {text.error ? <div className="muted">{text.error}</div> : null}
                  </td>
                  <td>{formatOrderDateTime(text.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3>Replies</h3>
      {replies.length === 0 ? (
        <p className="muted">No replies.</p>
      ) : (
        <ul className="order-replies">
          {replies.map((reply) => (
            <li key={reply.id}>
              <span dir="auto">{`“${reply.body}”`}</span>
              {` by ${CHANNEL_NAMES[reply.channel]}, ${formatOrderDateTime(reply.receivedAt)}: ${ACTION_NAMES[reply.action]}`}
            </li>
          ))}
        </ul>
      )}
      {waiting ? (
        <Form method="post" action={`/admin/orders/${order._id}`}>
          <input type="hidden" name="intent" value="send-again" />
          <button type="submit" className="button button--small">
            Send again
          </button>
        </Form>
      ) : null}
    </section>
  );
}
