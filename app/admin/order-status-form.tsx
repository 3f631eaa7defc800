import { Form, useLocation, useSubmit } from "react-router";
import { ORDER_STATUSES, shortOrderId, type OrderStatus } from "../../server/modules/orders/order-values.shared";
import { useHydrated } from "../lib/use-hydrated";

/**
 * The status selector of an order. Without JavaScript it is a select and an Update button;
 * with it, choosing a status submits at once. Either way it is one POST answered by a redirect.
 */
export function OrderStatusForm({
  orderId,
  status,
  place = "row",
}: {
  orderId: string;
  status: OrderStatus;
  place?: "row" | "details";
}) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  const location = useLocation();
  const selectId = `status-${place}-${orderId}`;
  return (
    <Form method="post" action="/admin/orders" className="status-form" preventScrollReset>
      <input type="hidden" name="orderId" value={orderId} />
      <input type="hidden" name="returnTo" value={location.pathname + location.search} />
      <label htmlFor={selectId} className="visually-hidden">{`Status of order #${shortOrderId(orderId)}`}</label>
      <select
        id={selectId}
        name="status"
        defaultValue={status}
        onChange={hydrated ? (event) => submit(event.currentTarget.form, { preventScrollReset: true }) : undefined}
      >
        {ORDER_STATUSES.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
      {hydrated ? null : (
        <button type="submit" className="button button--small">
          Update
        </button>
      )}
    </Form>
  );
}
