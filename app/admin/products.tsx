import { Link } from "react-router";
import { ProductImage } from "../components/product-image";
import { requestContext } from "../context";
import { requireAdmin } from "../lib/guards";
import { pageFromUrl, searchFromUrl } from "../lib/list-pages";
import { routeMeta } from "../lib/meta";
import { formatRupees } from "../lib/money";
import { AdminListPage } from "./admin-list";
import type { Route } from "./+types/products";

/** Admin product lists hold up to 1000 products a page (docs/product.md, "Products"). */
const ADMIN_PAGE_SIZE = 1000;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const params = new URL(request.url).searchParams;
  const search = searchFromUrl(params, 100);
  const page = pageFromUrl(params);
  const { products, pagination } = await services.catalog.listProducts({
    search,
    page,
    limit: ADMIN_PAGE_SIZE,
    sort: "-createdAt",
  });
  return { products, pagination, search };
}

export const meta: Route.MetaFunction = routeMeta({ title: "Manage Products", path: "/admin/products", noindex: true });

export default function AdminProducts({ loaderData }: Route.ComponentProps) {
  const { products, pagination, search } = loaderData;
  const pageLink = (page: number) =>
    `/admin/products?${new URLSearchParams({ ...(search ? { search } : {}), page: String(page) })}`;
  return (
    <AdminListPage
      title="Manage Products"
      action={
        <Link className="button" to="/admin/products/new">
          Add Product
        </Link>
      }
      summary={`${pagination.total} ${pagination.total === 1 ? "product" : "products"}`}
      filters={{
        fields: [{ kind: "search", name: "search", label: "Search products", value: search, maxLength: 100 }],
        submitLabel: "Search",
      }}
      list={{
        rows: products,
        rowKey: (product) => product._id,
        empty: "No products found",
        columns: [
          {
            header: "Image",
            cell: (product, index) => (
              <ProductImage src={product.imageUrl} images={product.images} alt="" size={48} eager={index < 10} />
            ),
          },
          {
            header: "Name",
            title: true,
            cell: (product) => (
              <>
                <Link to={`/products/${product._id}`}>{product.name}</Link>
                {product.brand ? <div className="muted">{product.brand}</div> : null}
              </>
            ),
          },
          { header: "Category", cell: (product) => product.category },
          { header: "Price", cell: (product) => formatRupees(product.price) },
          { header: "Stock", cell: (product) => product.stock },
          {
            header: "Actions",
            cell: (product) => (
              <div className="actions">
                <Link
                  className="button button--small button--ghost"
                  to={`/admin/products/${product._id}/edit`}
                  aria-label={`Edit ${product.name}`}
                >
                  Edit
                </Link>
                <Link
                  className="button button--small button--danger"
                  to={`/admin/products/${product._id}/delete`}
                  aria-label={`Delete ${product.name}`}
                >
                  Delete
                </Link>
              </div>
            ),
          },
        ],
      }}
      pages={{ page: pagination.page, totalPages: pagination.totalPages, href: pageLink }}
    />
  );
}
