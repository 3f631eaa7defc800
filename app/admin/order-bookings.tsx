import { Link, data } from "react-router";
import { shortOrderId } from "../../server/modules/orders/order-values.shared";
import { DomainError, InvalidInputError } from "../../server/modules/shared/errors.shared";
import { requestContext } from "../context";
import { requireAdmin, safeRedirectPath } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import type { Route } from "./+types/order-bookings";

/** The most orders one "Book selected" books: a page of the list. */
export const BOOK_SELECTED_MAX = 50;

type BookingResult =
  | { orderId: string; outcome: "booked"; courier: string; trackingNumber: string }
  | { orderId: string; outcome: "choose-city" | "not-booked"; message: string };

/** Also run after the action (React Router reloads the page's data): nothing to load, the results are the action's. */
export function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  return null;
}

/**
 * "Book selected" on the orders list (docs/product.md, "Couriers through their APIs"): each
 * ticked order booked with the chosen courier through the same flow as the order's page and the
 * API, one after another, and what became of each shown: its tracking number, or why not (a
 * city that needs choosing links to the order's page, where its list is).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const form = await request.formData();
  const orderIds = [...new Set(form.getAll("orderId").filter((value): value is string => typeof value === "string"))];
  const courier = typeof form.get("courier") === "string" ? String(form.get("courier")) : "";
  const returnTo = safeRedirectPath(String(form.get("returnTo") ?? ""), "/admin/orders");
  const courierName = services.shipping.couriers.find((known) => known.id === courier)?.name ?? null;
  const refusal = !courierName
    ? "Choose a courier to book with"
    : orderIds.length === 0
      ? "Tick the orders to book"
      : orderIds.length > BOOK_SELECTED_MAX
        ? `Book at most ${BOOK_SELECTED_MAX} orders at a time`
        : null;
  if (refusal) return data({ courierName, results: [] as BookingResult[], refusal, returnTo }, { status: 400 });
  const results: BookingResult[] = [];
  // One at a time: each booking holds its order's lock only, and the courier sees one call at once.
  for (const orderId of orderIds) {
    try {
      const order = await services.shipping.book(orderId, { courier }, admin);
      results.push({ orderId, outcome: "booked", courier: order.courier!, trackingNumber: order.trackingNumber! });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const needsCity = error instanceof InvalidInputError && error.errors.some((e) => e.field === "city");
      results.push({ orderId, outcome: needsCity ? "choose-city" : "not-booked", message: error.message });
    }
  }
  return { courierName, results, refusal: null as string | null, returnTo };
}

export const meta: Route.MetaFunction = routeMeta({ title: "Book Selected Orders", noindex: true });

export default function OrderBookings({ actionData }: Route.ComponentProps) {
  if (!actionData) {
    return (
      <section className="card order-bookings">
        <h1>Book selected</h1>
        <p>
          Tick the orders to book on the <Link to="/admin/orders">orders list</Link>, choose the courier and press Book
          selected.
        </p>
      </section>
    );
  }
  const { courierName, results, refusal, returnTo } = actionData;
  const booked = results.filter((result) => result.outcome === "booked").length;
  return (
    <section className="card order-bookings">
      <h1>{courierName ? `Book selected with ${courierName}` : "Book selected"}</h1>
      {refusal ? (
        <div className="form-error" role="alert">
          {refusal}
        </div>
      ) : (
        <p>{`${booked} of ${results.length} ${results.length === 1 ? "order" : "orders"} booked.`}</p>
      )}
      <ul className="link-list order-bookings__results">
        {results.map((result) => (
          <li key={result.orderId} className={`order-bookings__${result.outcome}`}>
            <Link to={`/admin/orders/${result.orderId}`}>{`Order #${shortOrderId(result.orderId)}`}</Link>
            {result.outcome === "booked"
              ? `: booked with ${result.courier}, tracking number ${result.trackingNumber}`
              : result.outcome === "choose-city"
                ? `: not booked. ${result.message}: `
                : `: not booked. ${result.message}`}
            {result.outcome === "choose-city" ? (
              <Link to={`/admin/orders/${result.orderId}`}>choose it on the order&apos;s page</Link>
            ) : null}
          </li>
        ))}
      </ul>
      <p>
        <Link to={returnTo}>← Back to Orders</Link>
      </p>
    </section>
  );
}
