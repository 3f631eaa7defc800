import { useEffect, useRef, useState } from "react";
import { Form, useLocation, useNavigate, useNavigation, useSubmit } from "react-router";
import { ORDER_STATUSES, shortOrderId, type OrderStatus } from "../../server/modules/orders/order-values.shared";
import { useHydrated } from "../lib/use-hydrated";

/** The page that asks for the courier and the tracking number (docs/product.md, "Shipping an order"). */
export function shipOrderPath(orderId: string, returnTo: string): string {
  return `/admin/orders/${orderId}/ship?${new URLSearchParams({ returnTo })}`;
}

/**
 * The status selector of an order. Without JavaScript it is a select and an Update button;
 * with it, choosing a status submits at once. Either way it is one POST answered by a redirect.
 * Shipped needs the courier and the tracking number, so choosing it leads to the page that asks
 * for them (the action redirects there; with JavaScript the select goes there itself).
 *
 * A status chosen before the scripts ran has not been sent: the Update button then stays until
 * it is pressed or the select is used again (docs/decisions/2026-11-23-before-hydration.md).
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
  const navigate = useNavigate();
  const location = useLocation();
  const navigation = useNavigation();
  const select = useRef<HTMLSelectElement>(null);
  const [unsentChoice, setUnsentChoice] = useState(false);
  const checkedAtHydration = useRef(false);
  useEffect(() => {
    // Once, at hydration: a select that no longer shows the order's status holds an unsent choice.
    if (checkedAtHydration.current) return;
    checkedAtHydration.current = true;
    if (select.current && select.current.value !== status) setUnsentChoice(true);
  }, [status]);

  // When a post for this order is answered, the select shows the status the order now has: the
  // chosen one, or the old one if the change was refused (the flash message says why).
  const sending =
    navigation.state !== "idle" &&
    navigation.formAction === "/admin/orders" &&
    navigation.formData?.get("orderId") === orderId;
  const wasSending = useRef(false);
  useEffect(() => {
    if (wasSending.current && !sending && select.current) select.current.value = status;
    wasSending.current = sending;
  }, [sending, status]);

  const returnTo = location.pathname + location.search;
  const selectId = `status-${place}-${orderId}`;
  return (
    <Form
      method="post"
      action="/admin/orders"
      className="status-form"
      preventScrollReset
      onSubmit={() => setUnsentChoice(false)}
    >
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="orderId" value={orderId} />
      <input type="hidden" name="returnTo" value={returnTo} />
      <label htmlFor={selectId} className="visually-hidden">{`Status of order #${shortOrderId(orderId)}`}</label>
      <select
        ref={select}
        id={selectId}
        name="status"
        defaultValue={status}
        onChange={
          hydrated
            ? (event) => {
                setUnsentChoice(false);
                if (event.currentTarget.value === "Shipped") {
                  // Put back until the ship page has done it: the order is not shipped yet.
                  event.currentTarget.value = status;
                  navigate(shipOrderPath(orderId, returnTo));
                } else {
                  submit(event.currentTarget.form, { preventScrollReset: true });
                }
              }
            : undefined
        }
      >
        {ORDER_STATUSES.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
      {!hydrated || unsentChoice ? (
        <button type="submit" className="button button--small">
          Update
        </button>
      ) : null}
    </Form>
  );
}
