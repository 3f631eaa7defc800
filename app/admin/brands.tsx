import { Link } from "react-router";
import { requestContext } from "../context";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { AdminListPage } from "./admin-list";
import type { Route } from "./+types/brands";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  return { brands: await services.catalog.listBrands() };
}

export const meta: Route.MetaFunction = routeMeta({ title: "Brands", path: "/admin/brands", noindex: true });

/** Every brand by name (docs/product.md, "Brands"): each one's text is edited on a page of its own. */
export default function AdminBrands({ loaderData }: Route.ComponentProps) {
  const { brands } = loaderData;
  return (
    <AdminListPage
      title="Brands"
      summary={`${brands.length} ${brands.length === 1 ? "brand" : "brands"}`}
      note="A brand is added when a product first names it. Its short text shows on its page, above its watches."
      list={{
        rows: brands,
        rowKey: (brand) => brand.slug,
        empty: "No brands yet: they come with the products that name them",
        columns: [
          {
            header: "Brand",
            title: true,
            cell: (brand) => <Link to={`/brands/${brand.slug}`}>{brand.name}</Link>,
          },
          { header: "Watches", cell: (brand) => String(brand.productCount) },
          {
            header: "Text",
            cell: (brand) =>
              brand.description ? brand.description.slice(0, 120) : <span className="muted">None</span>,
          },
          {
            header: "Actions",
            cell: (brand) => (
              <Link to={`/admin/brands/${brand.slug}`} aria-label={`Edit the text of ${brand.name}`}>
                Edit
              </Link>
            ),
          },
        ],
      }}
    />
  );
}
