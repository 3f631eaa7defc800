import { Form, Link, redirect } from "react-router";
import type { PublicDiscount } from "../../server/modules/discounts/discounts.service";
import { requestContext } from "../context";
import { flashRefusal, formValues } from "../lib/forms";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { formatRupees } from "../lib/money";
import { formatOrderDateTime } from "../orders/order-display";
import type { Route } from "./+types/discounts";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  return { discounts: await services.discounts.listCodes() };
}

/** Deactivating (or activating again) from the list: a code is never deleted, since orders point at it. */
export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin(context, request);
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  if (values.intent === "deactivate" || values.intent === "activate") {
    try {
      const discount = await services.discounts.setActive(values.discountId ?? "", values.intent === "activate");
      session.setFlash({
        tone: "success",
        message: `Discount code ${discount.code} ${discount.active ? "activated" : "deactivated"}`,
      });
    } catch (error) {
      flashRefusal(session, error, "Something went wrong");
    }
  } else {
    session.setFlash({ tone: "error", message: "Something went wrong" });
  }
  throw redirect("/admin/discounts", 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Discount Codes", path: "/admin/discounts", noindex: true });

/** "10%" or "Rs. 500" off. */
function discountValue(discount: PublicDiscount): string {
  return discount.type === "percent" ? `${discount.value}% off` : `${formatRupees(discount.value)} off`;
}

/** When the code may be used: its dates in Pakistan's time, or "Always". */
function discountDates(discount: PublicDiscount): string {
  if (!discount.startsAt && !discount.endsAt) return "Always";
  const from = discount.startsAt ? `From ${formatOrderDateTime(discount.startsAt)}` : "";
  const to = discount.endsAt ? `until ${formatOrderDateTime(discount.endsAt)}` : "";
  return [from, to].filter(Boolean).join(" ");
}

/** The store's discount codes (docs/product.md, "Discount codes"), newest first, with their uses. */
export default function AdminDiscounts({ loaderData }: Route.ComponentProps) {
  const { discounts } = loaderData;
  return (
    <section>
      <header className="page-header">
        <h1>Discount Codes</h1>
        <Link className="button" to="/admin/discounts/new">
          New Discount Code
        </Link>
      </header>
      <p className="muted">
        Uses count orders that are not cancelled. Codes are never deleted: deactivate one to stop it.
      </p>
      {discounts.length === 0 ? (
        <p>No discount codes yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Discount</th>
                <th scope="col">Who</th>
                <th scope="col">When</th>
                <th scope="col">Uses</th>
                <th scope="col">State</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {discounts.map((discount) => (
                <tr key={discount._id}>
                  <td>
                    <strong className="discount-code">{discount.code}</strong>
                  </td>
                  <td>{discountValue(discount)}</td>
                  <td>{discount.firstOrderOnly ? "First order only" : "Every order"}</td>
                  <td>{discountDates(discount)}</td>
                  <td>
                    {discount.maxUses === null ? discount.usedCount : `${discount.usedCount} of ${discount.maxUses}`}
                  </td>
                  <td>
                    <span className={`status ${discount.active ? "status--delivered" : "status--cancelled"}`}>
                      {discount.active ? "Active" : "Inactive"}
                    </span>
                  </td>
                  <td className="actions">
                    <Link
                      className="button button--small button--ghost"
                      to={`/admin/discounts/${discount._id}/edit`}
                      aria-label={`Edit ${discount.code}`}
                    >
                      Edit
                    </Link>
                    <Form method="post">
                      <input type="hidden" name="discountId" value={discount._id} />
                      <input type="hidden" name="intent" value={discount.active ? "deactivate" : "activate"} />
                      <button
                        type="submit"
                        className="button button--small button--ghost"
                        aria-label={`${discount.active ? "Deactivate" : "Activate"} ${discount.code}`}
                      >
                        {discount.active ? "Deactivate" : "Activate"}
                      </button>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
