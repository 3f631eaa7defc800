import { Form, Link, data, redirect } from "react-router";
import { shortOrderId } from "../../server/modules/orders/order-values.shared";
import {
  RETURN_NOTE_MAX,
  RETURN_REASONS,
  RETURN_WINDOW_MS,
  returnableQuantities,
} from "../../server/modules/orders/return-values.shared";
import { InvalidInputError, NotFoundError, statusOf } from "../../server/modules/shared/errors.shared";
import { ProductImage } from "../components/product-image";
import { requestContext } from "../context";
import { Field, FormActions, FormError, formFailure, formValues } from "../lib/forms";
import { requireUser } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { formatRupees } from "../lib/money";
import { foundOr404 } from "../lib/not-found";
import { OrderNumber, OrderReturns, formatOrderDateTime } from "./order-display";
import type { Route } from "./+types/order-return";

/** The quantity select of one watch: `quantity-<product id>`, 0 for "not this one". */
const QUANTITY_FIELD = "quantity-";

/**
 * The customer asks to return watches of a delivered order (docs/product.md, "Returns"): a plain
 * form of quantities, a reason and a note. Only the order's owner: to anyone else, admins
 * included, the order does not exist (the 404 page).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const { services } = context.get(requestContext);
  const order = await foundOr404(services.orders.getOrder({ _id: user._id, role: "customer" }, params.orderId));
  const left = returnableQuantities(order);
  const lines = order.items
    .filter((item) => item.product._id && (left.get(item.product._id) ?? 0) > 0)
    .map((item) => ({
      productId: item.product._id!,
      name: item.product.name,
      imageUrl: item.product.imageUrl,
      price: item.price,
      left: left.get(item.product._id!)!,
    }));
  return { order, lines, refusal: services.orders.returnRefusal(order) };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  const items = Object.entries(values)
    .filter(([name, quantity]) => name.startsWith(QUANTITY_FIELD) && quantity !== "" && quantity !== "0")
    .map(([name, quantity]) => ({ productId: name.slice(QUANTITY_FIELD.length), quantity }));
  try {
    await services.returns.requestReturn(user._id, params.orderId, {
      items,
      reason: values.reason,
      note: values.note,
    });
  } catch (error) {
    if (error instanceof NotFoundError) throw data(error.message, { status: statusOf(error) });
    return formFailure(formFieldsOf(error, items), values, { fallback: "Failed to request the return" });
  }
  session.setFlash({ tone: "success", message: `Return requested for order #${shortOrderId(params.orderId)}` });
  throw redirect(`/my-orders/${params.orderId}`, 303);
}

/** The service names `items[2].quantity`; the form has one select per watch. */
function formFieldsOf(error: unknown, items: { productId: string }[]): unknown {
  if (!(error instanceof InvalidInputError)) return error;
  return new InvalidInputError(
    error.errors.map(({ field, message }) => {
      const match = /^items\[(\d+)\]/.exec(field);
      const productId = match ? items[Number(match[1])]?.productId : undefined;
      return { field: productId ? `${QUANTITY_FIELD}${productId}` : field, message };
    }),
  );
}

export const meta: Route.MetaFunction = routeMeta({ title: "Request a Return", noindex: true });

export default function RequestReturn({ loaderData, actionData }: Route.ComponentProps) {
  const { order, lines, refusal } = loaderData;
  const errors = actionData?.fieldErrors ?? {};
  const values = actionData?.values ?? {};
  return (
    <section className="form-page">
      <p>
        <Link to={`/my-orders/${order._id}`}>
          ← Back to order <OrderNumber id={order._id} />
        </Link>
      </p>
      <h1>
        Return from order <OrderNumber id={order._id} />
      </h1>
      {refusal ? (
        <div className="card">
          <p className="alert alert--info" role="status">
            {refusal}
          </p>
          <OrderReturns order={order} />
        </div>
      ) : (
        <>
          <p>
            {`Delivered ${formatOrderDateTime(order.deliveredAt!)}. You can ask for a return until ${formatOrderDateTime(
              new Date(new Date(order.deliveredAt!).getTime() + RETURN_WINDOW_MS).toISOString(),
            )}: the watch unworn, in its box, with its tags, certificate and warranty card.`}
          </p>
          {order.discount ? (
            <p className="muted">
              {`Your refund is what you paid for each watch: its price less its share of the ${order.discount.code} discount.`}
            </p>
          ) : null}
          <FormError message={actionData?.formError} />
          <Form method="post" noValidate className="card">
            <fieldset>
              <legend>Which watches?</legend>
              {errors.items ? (
                <p className="field-error" role="alert">
                  {errors.items}
                </p>
              ) : null}
              {lines.map((line) => {
                const name = `${QUANTITY_FIELD}${line.productId}`;
                return (
                  <div key={line.productId} className="return-line">
                    <ProductImage src={line.imageUrl} alt="" size={56} />
                    <Field name={name} label={`${line.name} (${formatRupees(line.price)} each)`} error={errors[name]}>
                      <select
                        id={`field-${name}`}
                        name={name}
                        defaultValue={values[name] ?? "0"}
                        aria-invalid={errors[name] ? true : undefined}
                        aria-describedby={errors[name] ? `field-${name}-error` : undefined}
                      >
                        {Array.from({ length: line.left + 1 }, (_, quantity) => (
                          <option key={quantity} value={String(quantity)}>
                            {quantity === 0 ? "None" : `Return ${quantity}`}
                          </option>
                        ))}
                      </select>
                    </Field>
                  </div>
                );
              })}
            </fieldset>
            <fieldset>
              <legend>Reason</legend>
              {RETURN_REASONS.map((reason) => (
                <label key={reason} className="choice">
                  <input type="radio" name="reason" value={reason} defaultChecked={values.reason === reason} /> {reason}
                </label>
              ))}
              {errors.reason ? (
                <p className="field-error" role="alert">
                  {errors.reason}
                </p>
              ) : null}
            </fieldset>
            <Field name="note" label="Note (optional)" error={errors.note}>
              <textarea
                id="field-note"
                name="note"
                rows={3}
                maxLength={RETURN_NOTE_MAX}
                defaultValue={values.note}
                aria-invalid={errors.note ? true : undefined}
                aria-describedby={errors.note ? "field-note-error" : undefined}
              />
            </Field>
            <FormActions label="Request Return" pendingLabel="Sending..." cancelTo={`/my-orders/${order._id}`} />
          </Form>
          <OrderReturns order={order} />
        </>
      )}
    </section>
  );
}
