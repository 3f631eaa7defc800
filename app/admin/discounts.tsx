import { Form, Link, redirect } from "react-router";
import type { PublicDiscount } from "../../server/modules/discounts/discounts.service";
import { requestContext } from "../context";
import { flashRefusal, formValues } from "../lib/forms";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { formatRupees } from "../lib/money";
import { formatStoreDateTime } from "../../server/modules/shared/store-dates.shared";
import { AdminListPage } from "./admin-list";
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
  const from = discount.startsAt ? `From ${formatStoreDateTime(discount.startsAt)}` : "";
  const to = discount.endsAt ? `until ${formatStoreDateTime(discount.endsAt)}` : "";
  return [from, to].filter(Boolean).join(" ");
}

/** The store's discount codes (docs/product.md, "Discount codes"), newest first, with their uses. */
export default function AdminDiscounts({ loaderData }: Route.ComponentProps) {
  const { discounts } = loaderData;
  return (
    <AdminListPage
      title="Discount Codes"
      action={
        <Link className="button" to="/admin/discounts/new">
          New Discount Code
        </Link>
      }
      note={<p>Uses count orders that are not cancelled. Codes are never deleted: deactivate one to stop it.</p>}
      list={{
        rows: discounts,
        rowKey: (discount) => discount._id,
        empty: "No discount codes yet.",
        columns: [
          {
            header: "Code",
            title: true,
            cell: (discount) => <strong className="discount-code">{discount.code}</strong>,
          },
          { header: "Discount", cell: discountValue },
          { header: "Who", cell: (discount) => (discount.firstOrderOnly ? "First order only" : "Every order") },
          { header: "When", cell: discountDates },
          {
            header: "Uses",
            cell: (discount) =>
              discount.maxUses === null ? discount.usedCount : `${discount.usedCount} of ${discount.maxUses}`,
          },
          {
            header: "State",
            cell: (discount) => (
              <span className={`status ${discount.active ? "status--delivered" : "status--cancelled"}`}>
                {discount.active ? "Active" : "Inactive"}
              </span>
            ),
          },
          {
            header: "Actions",
            cell: (discount) => (
              <div className="actions">
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
              </div>
            ),
          },
        ],
      }}
    />
  );
}
