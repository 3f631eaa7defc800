import { Form, data, useNavigation } from "react-router";
import { CONFIRMATION_PAGE } from "../../server/modules/confirmation/confirmation-texts.shared";
import { shortOrderId } from "../../server/modules/orders/order-values.shared";
import { ConflictError, NotFoundError } from "../../server/modules/shared/errors.shared";
import { requestContext } from "../context";
import { formatRupees } from "../lib/money";
import type { Route } from "./+types/confirm-order";
import type { MessageLanguage } from "../../server/modules/orders/order-values.shared";

/**
 * The link in every confirmation message, /c/{token} (docs/product.md, "Confirming an order"):
 * the order's items, total and the last four digits of its phone, with Confirm and Cancel, in
 * the order's language. No sign-in: the token is the key, and it opens only its order. Opening
 * the link changes nothing (link previews open it); the buttons post a plain form.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  try {
    return { page: await services.orderConfirmation.pageFor(params.token), answered: null };
  } catch (error) {
    if (error instanceof NotFoundError) throw data(null, { status: 404 });
    throw error;
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { services } = context.get(requestContext);
  const form = await request.formData();
  const answer = form.get("answer");
  if (answer !== "confirm" && answer !== "cancel") {
    const page = await services.orderConfirmation.pageFor(params.token).catch(() => null);
    if (!page) throw data(null, { status: 404 });
    return data({ page, answered: null }, { status: 400 });
  }
  try {
    return { page: await services.orderConfirmation.answerByLink(params.token, answer), answered: answer };
  } catch (error) {
    if (error instanceof NotFoundError) throw data(null, { status: 404 });
    // Shipped, booked or cancelled meanwhile: the page says the link no longer works.
    if (error instanceof ConflictError) {
      return data({ page: await services.orderConfirmation.pageFor(params.token), answered: null }, { status: 409 });
    }
    throw error;
  }
}

/** The address holds the order's token: no cache keeps the page, and no other site is told of it (a referrer policy of `no-referrer` would also make its own posts arrive with Origin null, which the cross-site check refuses). */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store", "Referrer-Policy": "same-origin" });

/** The root layout writes `<html lang dir>` from this (app/root.tsx). */
export const handle = {
  pageLanguage: (loaderData: unknown): MessageLanguage | null =>
    (loaderData as { page?: { language?: MessageLanguage } } | undefined)?.page?.language ?? null,
};

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: CONFIRMATION_PAGE[loaderData?.page.language ?? "en"].title },
  { name: "robots", content: "noindex" },
];

export default function ConfirmOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { page } = actionData ?? loaderData;
  const words = CONFIRMATION_PAGE[page.language];
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const status =
    page.confirmation === "cancelled"
      ? words.cancelled
      : !page.open
        ? words.closed
        : page.confirmation === "confirmed"
          ? words.confirmed
          : null;
  return (
    <section className="card form-page confirm-order" lang={page.language} dir={page.language === "ur" ? "rtl" : "ltr"}>
      <h1>{words.title}</h1>
      <p>
        {words.order} <span dir="ltr">#{shortOrderId(page.orderId)}</span>
      </p>
      {status ? (
        <p className="confirm-order__status" role="status">
          {status}
        </p>
      ) : (
        <p>{words.intro}</p>
      )}
      <table className="confirm-order__items">
        <caption>{words.items}</caption>
        <thead>
          <tr>
            <th scope="col">{words.items}</th>
            <th scope="col">{words.quantity}</th>
          </tr>
        </thead>
        <tbody>
          {page.items.map((item, index) => (
            <tr key={index}>
              <td dir="auto">{item.name}</td>
              <td>{item.quantity}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{words.total}</th>
            <td dir="ltr">{formatRupees(page.totalPrice)}</td>
          </tr>
        </tfoot>
      </table>
      {page.phoneLastFour ? <p>{words.phone(page.phoneLastFour)}</p> : null}
      {page.open ? (
        <Form method="post" className="actions">
          {page.confirmation === "confirmed" ? null : (
            <button type="submit" name="answer" value="confirm" className="button" disabled={busy}>
              {words.confirm}
            </button>
          )}
          <button type="submit" name="answer" value="cancel" className="button button--danger" disabled={busy}>
            {words.cancel}
          </button>
        </Form>
      ) : null}
    </section>
  );
}
