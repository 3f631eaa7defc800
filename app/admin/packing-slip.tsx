import { shortOrderId } from "../../server/modules/orders/order-values.shared";
import { formatStoreDateTime } from "../../server/modules/shared/store-dates.shared";
import { paymentMethodNamed } from "../../server/providers/payment-methods/payment-methods.shared";
import { formatPakistaniMobile } from "../../server/modules/shared/phone.shared";
import type { StoreDetails } from "../../server/settings/store-details";
import { formatRupees } from "../lib/money";
import type { PublicOrder } from "../../server/modules/orders/order.shape";

/**
 * Packing slips (docs/product.md, "Packing slips"): printable pages without the site's header
 * and footer, one slip a page, made for A6 labels or plain A4 paper (`paper=a6|a4`; the print
 * stylesheet sets the page size for each). No JavaScript: the browser's own Print prints them.
 */
export const PAPERS = ["a6", "a4"] as const;
export type Paper = (typeof PAPERS)[number];

export function paperFromUrl(params: URLSearchParams): Paper {
  const paper = params.get("paper");
  return paper === "a4" ? "a4" : "a6";
}

/** The page's route handle: the root layout leaves out the header, the footer and the skip link. */
export const printableHandle = { printable: true };

/** On screen only: what the page is, the paper choice and the way back. Never printed. */
export function SlipToolbar({
  title,
  paper,
  paperHref,
  backTo,
  children,
}: {
  title: string;
  paper: Paper;
  paperHref: (paper: Paper) => string;
  backTo: string;
  children?: React.ReactNode;
}) {
  return (
    <div className="slip-toolbar">
      <h1>{title}</h1>
      <p>
        {"Print with the browser's Print command (Ctrl+P). Paper: "}
        {paper === "a6" ? <strong>A6 label</strong> : <a href={paperHref("a6")}>A6 label</a>}
        {" · "}
        {paper === "a4" ? <strong>A4 paper</strong> : <a href={paperHref("a4")}>A4 paper</a>}
      </p>
      {children}
      <p>
        <a href={backTo}>Back to orders</a>
      </p>
    </div>
  );
}

/**
 * One slip. `barcodeSvg` is the tracking number's barcode (tracking-barcode.server.ts), drawn for
 * an order with a tracking number: the courier scans it, and reads the number printed under it.
 */
export function PackingSlip({
  order,
  store,
  barcodeSvg = null,
}: {
  order: PublicOrder;
  store: StoreDetails;
  barcodeSvg?: string | null;
}) {
  const { street, city, state, zipCode, country } = order.address;
  return (
    <article className="slip" aria-label={`Packing slip for order #${shortOrderId(order._id)}`}>
      <header className="slip__from">
        {/* The sender, large: a label on the parcel, not a paragraph nor a heading. */}
        <div className="slip__shop">{store.name}</div>
        <p>
          {`Return address: ${store.address.street}, ${store.address.city}, ${store.address.country}`}
          <br />
          {`Phone: ${store.phone}`}
        </p>
      </header>
      <section className="slip__to" aria-label="Deliver to">
        <p className="slip__label">Deliver to</p>
        <p className="slip__name">{order.user.name}</p>
        <p className="slip__phone">{order.phone ? formatPakistaniMobile(order.phone) : "No mobile number"}</p>
        <p className="slip__address">
          {street}
          <br />
          {`${city}, ${`${state} ${zipCode}`.trim()}`}
          <br />
          {country}
        </p>
      </section>
      <p className="slip__order">
        <span>{`Order #${shortOrderId(order._id)}`}</span>
        <span>{formatStoreDateTime(order.createdAt)}</span>
        {order.courier ? (
          <span>{`${order.courier}${order.trackingNumber ? ` ${order.trackingNumber}` : ""}`}</span>
        ) : null}
      </p>
      {barcodeSvg && order.trackingNumber ? (
        <figure className="slip__barcode">
          {/* bwip-js's own SVG of the number, made on the server from the stored tracking number. */}
          <div
            className="slip__barcode-bars"
            role="img"
            aria-label={`Barcode of tracking number ${order.trackingNumber}`}
            dangerouslySetInnerHTML={{ __html: barcodeSvg }}
          />
          <figcaption className="slip__barcode-number">{order.trackingNumber}</figcaption>
        </figure>
      ) : null}
      <table className="slip__items">
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Qty</th>
          </tr>
        </thead>
        <tbody>
          {order.items.map((item, index) => (
            <tr key={`${item.product._id ?? "gone"}-${index}`}>
              <td>{item.product.name}</td>
              <td>{item.quantity}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {order.discount ? (
        <p className="slip__discount">
          {`Subtotal ${formatRupees(order.subtotal)}, discount (${order.discount.code}) −${formatRupees(order.discount.amount)}`}
        </p>
      ) : null}
      {/* What the courier collects at the door: nothing for an order whose payment the store holds. */}
      {order.collectOnDelivery > 0 ? (
        <p className="slip__cod">{`${paymentMethodNamed(order.paymentMethod).label}: collect ${formatRupees(order.collectOnDelivery)}`}</p>
      ) : order.status === "Cancelled" ? null : order.amountDue === 0 ? (
        <p className="slip__cod">PAID: collect nothing</p>
      ) : (
        <p className="slip__warning">Payment not verified yet: do not send it.</p>
      )}
      {order.status === "Cancelled" ? <p className="slip__warning">This order is cancelled: do not send it.</p> : null}
    </article>
  );
}
