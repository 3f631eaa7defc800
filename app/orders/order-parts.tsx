import { Link } from "react-router";
import { shortOrderId, type OrderStatus } from "../../server/modules/orders/order-values.shared";
import type { PublicOrder } from "../../server/modules/orders/orders.service";
import { ProductImage } from "../components/product-image";
import { formatRupees } from "../lib/money";

/** Pending yellow, Shipped blue, Delivered green, Cancelled red (docs/product.md, "Orders"). */
export function StatusBadge({ status }: { status: OrderStatus }) {
  return <span className={`status status--${status.toLowerCase()}`}>{status}</span>;
}

export function formatOrderDate(iso: string): string {
  return new Date(iso).toLocaleDateString("en-PK", {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: "Asia/Karachi",
  });
}

/** A moment (e.g. a confirmation) in Pakistan's time: "23 Nov 2026, 3:04 pm". */
export function formatOrderDateTime(iso: string): string {
  return new Date(iso).toLocaleString("en-PK", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone: "Asia/Karachi",
  });
}

export function OrderNumber({ id }: { id: string }) {
  return <span className="order-number" title={id}>{`#${shortOrderId(id)}`}</span>;
}

/** The lines of an order as they were sold: name, image, quantity and unit price then. */
export function OrderItems({ order }: { order: PublicOrder }) {
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
        </li>
      ))}
    </ul>
  );
}

export function OrderAddress({ order }: { order: PublicOrder }) {
  const { street, city, state, zipCode, country } = order.address;
  return (
    <address className="order-address">
      {[street, city, `${state} ${zipCode}`.trim(), country].filter(Boolean).join(", ")}
    </address>
  );
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
          Tracking number: <strong className="tracking-number">{order.trackingNumber}</strong>
        </span>
      ) : null}
    </p>
  );
}

/** One order as a card: number, date, status, items, total and, once shipped, courier and tracking number (My Orders, profile). */
export function OrderCard({ order, cancellable }: { order: PublicOrder; cancellable?: boolean }) {
  const number = shortOrderId(order._id);
  return (
    <article className="card order-card" aria-label={`Order #${number}`}>
      <header className="order-card__header">
        <OrderNumber id={order._id} />
        <span className="muted">{formatOrderDate(order.createdAt)}</span>
        <StatusBadge status={order.status} />
      </header>
      <OrderItems order={order} />
      <OrderShipping order={order} />
      <p className="order-card__total">{`Total: ${formatRupees(order.totalPrice)}`}</p>
      <p className="actions">
        <Link className="button button--small button--ghost" to={`/my-orders/${order._id}`}>
          <span>View details</span>
          <span className="visually-hidden">{` of order #${number}`}</span>
        </Link>
        {cancellable ? <CancelOrderLink order={order} /> : null}
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
