import { Link } from "react-router";
import { shortOrderId, type OrderStatus } from "../../server/modules/orders/order-values.shared";
import type { PublicReturn } from "../../server/modules/orders/return.shape";
import type { ReturnStatus } from "../../server/modules/orders/return-values.shared";
import { formatStoreDate, formatStoreDateTime } from "../../server/modules/shared/store-dates.shared";
import { ProductImage } from "../components/product-image";
import { formatRupees } from "../lib/money";
import { PARCEL_STAGE_LABELS } from "../../server/providers/couriers/courier-provider.shared";
import { TrackingNumber } from "./tracking-number";
import type { PublicOrder } from "../../server/modules/orders/order.shape";

/** Pending yellow, Shipped blue, Delivered green, Cancelled red (docs/product.md, "Orders"). */
export function StatusBadge({ status }: { status: OrderStatus }) {
  return <span className={`status status--${status.toLowerCase()}`}>{status}</span>;
}

/** The day an order was placed, "25 Nov 2026" (the store's one date format, Pakistan time). */
export function formatOrderDate(iso: string): string {
  return formatStoreDate(iso);
}

/** A moment (e.g. a confirmation) in Pakistan's time: "23 Nov 2026, 3:04 pm". */
export function formatOrderDateTime(iso: string): string {
  return formatStoreDateTime(iso);
}

export function OrderNumber({ id }: { id: string }) {
  return <span className="order-number" title={id}>{`#${shortOrderId(id)}`}</span>;
}

/**
 * The lines of an order as they were sold: name, image, quantity and unit price then; "Write a
 * review" beside each watch of a delivered order that its customer may still review (`reviewable`).
 */
export function OrderItems({ order, reviewable = [] }: { order: PublicOrder; reviewable?: readonly string[] }) {
  return (
    <ul className="order-items">
      {order.items.map((item, index) => (
        <li key={`${item.product._id ?? "gone"}-${index}`} className="order-item">
          <ProductImage src={item.product.imageUrl} images={item.product.images} alt="" size={56} />
          <span className="order-item__name">
            {item.product._id ? (
              <Link to={`/products/${item.product._id}`}>{item.product.name}</Link>
            ) : (
              item.product.name
            )}
          </span>
          <span>{`${item.quantity} × ${formatRupees(item.price)}`}</span>
          {order.status === "Delivered" && item.product._id && reviewable.includes(item.product._id) ? (
            <Link className="button button--small button--ghost" to={`/products/${item.product._id}/review`}>
              <span>Write a review</span>
              <span className="visually-hidden">{` of ${item.product.name}`}</span>
            </Link>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** What an order's address is to it now: where it is going, where it went, or (cancelled) just its address. */
export function deliveryLabel(status: OrderStatus): string {
  if (status === "Delivered") return "Delivered to";
  if (status === "Cancelled") return "Address";
  return "Delivering to";
}

/** An address on one line: "22 Mall Road, Lahore, Punjab 54000, Pakistan". */
export function addressLine({ street, city, state, zipCode, country }: PublicOrder["address"]): string {
  return [street, city, `${state} ${zipCode}`.trim(), country].filter(Boolean).join(", ");
}

export function OrderAddress({ order }: { order: PublicOrder }) {
  return <address className="order-address">{addressLine(order.address)}</address>;
}

/**
 * The courier and its tracking number, once the order was shipped (docs/product.md, "Shipping
 * an order"); nothing before.
 */
export function OrderShipping({ order }: { order: PublicOrder }) {
  if (!order.courier && !order.trackingNumber) return null;
  return (
    <p className="order-shipping">
      {order.courier ? (
        <span>
          Courier: <strong>{order.courier}</strong>
        </span>
      ) : null}
      {order.trackingNumber ? (
        <span>
          Tracking number: <TrackingNumber courier={order.courier} trackingNumber={order.trackingNumber} strong />
        </span>
      ) : null}
    </p>
  );
}

/**
 * What the courier reported of the parcel booked through its API, oldest first, in Pakistan's
 * time: the store's reading of each status, the courier's own words, and an attempt's reason.
 * Nothing for an order without such a parcel.
 */
export function ParcelTimeline({ order }: { order: PublicOrder }) {
  if (!order.shipment) return null;
  const { courier, events } = order.shipment;
  return (
    <section className="parcel-timeline" aria-labelledby={`parcel-timeline-${order._id}`}>
      <h2 id={`parcel-timeline-${order._id}`}>{`Parcel with ${courier}`}</h2>
      {events.length === 0 ? (
        <p>{`${courier} has not reported on the parcel yet.`}</p>
      ) : (
        <ol className="parcel-timeline__events">
          {events.map((event, index) => (
            <li key={`${event.at}-${index}`}>
              <time dateTime={event.at}>{formatStoreDateTime(event.at)}</time>{" "}
              <strong>{event.status ? PARCEL_STAGE_LABELS[event.status] : event.text}</strong>
              {event.status ? <span>{` (${event.text})`}</span> : null}
              {event.reason ? <span className="parcel-timeline__reason">{` Reason: ${event.reason}`}</span> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/**
 * The discount an order took, beside its subtotal (docs/product.md, "Discount codes"); nothing
 * for an order without a code.
 */
export function OrderDiscount({ order }: { order: PublicOrder }) {
  if (!order.discount) return null;
  return (
    <p className="order-discount">
      <span>{`Subtotal ${formatRupees(order.subtotal)}`}</span>
      <span>{`Discount (${order.discount.code}) −${formatRupees(order.discount.amount)}`}</span>
    </p>
  );
}

/** Requested yellow, Approved blue, Received green, Rejected red, like the orders' own. */
export function ReturnStatusBadge({ status }: { status: ReturnStatus }) {
  return <span className={`status status--return-${status.toLowerCase()}`}>{status}</span>;
}

/** One return as its customer follows it: what, why, where it stands, and the refund. */
export function ReturnSummary({ orderReturn }: { orderReturn: PublicReturn }) {
  return (
    <>
      <p className="return-summary__head">
        {`Return requested ${formatOrderDate(orderReturn.createdAt)}: `}
        {orderReturn.items.map((item) => `${item.quantity} × ${item.product.name}`).join(", ")}{" "}
        <ReturnStatusBadge status={orderReturn.status} />
      </p>
      <p className="muted">{`Reason: ${orderReturn.reason}${orderReturn.note ? ` (“${orderReturn.note}”)` : ""}`}</p>
      {orderReturn.status === "Rejected" && orderReturn.rejectionReason ? (
        <p>{`Not accepted: ${orderReturn.rejectionReason}`}</p>
      ) : null}
      {orderReturn.refund ? (
        <p>
          {`Refunded ${formatRupees(orderReturn.refundAmount)} by ${orderReturn.refund.method}${
            orderReturn.refund.reference ? `, reference ${orderReturn.refund.reference}` : ""
          }`}
        </p>
      ) : orderReturn.status === "Rejected" ? null : (
        <p>{`Refund on arrival: ${formatRupees(orderReturn.refundAmount)}`}</p>
      )}
    </>
  );
}

/** An order's returns and their states (docs/product.md, "Returns"); nothing when there are none. */
export function OrderReturns({ order }: { order: PublicOrder }) {
  if (order.returns.length === 0) return null;
  return (
    <section className="order-returns" aria-label={`Returns of order #${shortOrderId(order._id)}`}>
      <h3>Returns</h3>
      <ul>
        {order.returns.map((orderReturn) => (
          <li key={orderReturn._id}>
            <ReturnSummary orderReturn={orderReturn} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * One order as a card: number, date, status, items, the discount, total, once shipped courier and
 * tracking number, and its returns (My Orders, profile), with a link to its page. `cancellable`:
 * the customer may still cancel it; `canReturn`: it can be returned now. The card offers each.
 */
export function OrderCard({
  order,
  cancellable = false,
  canReturn = false,
  reviewable,
}: {
  order: PublicOrder;
  cancellable?: boolean;
  canReturn?: boolean;
  /** The watches of the order its customer may review (not yet reviewed). */
  reviewable?: readonly string[];
}) {
  const number = shortOrderId(order._id);
  return (
    <article className="card order-card" aria-label={`Order #${number}`}>
      <header className="order-card__header">
        <OrderNumber id={order._id} />
        <span className="muted">{formatOrderDate(order.createdAt)}</span>
        <StatusBadge status={order.status} />
      </header>
      <OrderItems order={order} reviewable={reviewable} />
      <OrderShipping order={order} />
      <OrderDiscount order={order} />
      <p className="order-card__total">{`Total: ${formatRupees(order.totalPrice)}`}</p>
      <OrderReturns order={order} />
      <p className="actions">
        <Link className="button button--small button--ghost" to={`/my-orders/${order._id}`}>
          <span>View details</span>
          <span className="visually-hidden">{` of order #${number}`}</span>
        </Link>
        {cancellable ? <CancelOrderLink order={order} /> : null}
        {canReturn ? <RequestReturnLink order={order} /> : null}
      </p>
    </article>
  );
}

/**
 * The customer's own "Cancel order", while it is allowed (docs/product.md, "Cancelling an
 * order"): it leads to the confirmation step, a page of its own.
 */
export function CancelOrderLink({ order }: { order: PublicOrder }) {
  return (
    <Link className="button button--small button--danger" to={`/my-orders/${order._id}/cancel`}>
      <span>Cancel order</span>
      <span className="visually-hidden">{` #${shortOrderId(order._id)}`}</span>
    </Link>
  );
}

/** "Request a return" while the order can be returned (docs/product.md, "Returns"): the return form. */
export function RequestReturnLink({ order }: { order: PublicOrder }) {
  return (
    <Link className="button button--small button--ghost" to={`/my-orders/${order._id}/return`}>
      <span>Request a return</span>
      <span className="visually-hidden">{` of order #${shortOrderId(order._id)}`}</span>
    </Link>
  );
}
