import { Form, Link } from "react-router";
import { ProductImage } from "../components/product-image";
import { requestContext } from "../context";
import { requireAdmin } from "../lib/guards";
import { PreviousNextPages, pageFromUrl, searchFromUrl } from "../lib/list-pages";
import { routeMeta } from "../lib/meta";
import { formatRupees } from "../lib/money";
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
    <section>
      <header className="page-header">
        <h1>Manage Products</h1>
        <Link className="button" to="/admin/products/new">
          Add Product
        </Link>
      </header>
      <Form method="get" className="filters" role="search">
        <div className="field">
          <label htmlFor="product-search">Search products</label>
          <input id="product-search" type="search" name="search" defaultValue={search} maxLength={100} />
        </div>
        <button type="submit" className="button">
          Search
        </button>
      </Form>
      <p>{`${pagination.total} ${pagination.total === 1 ? "product" : "products"}`}</p>
      {products.length === 0 ? (
        <p>No products found</p>
      ) : (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Image</th>
                <th scope="col">Name</th>
                <th scope="col">Category</th>
                <th scope="col">Price</th>
                <th scope="col">Stock</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {products.map((product, index) => (
                <tr key={product._id}>
                  <td>
                    <ProductImage src={product.imageUrl} images={product.images} alt="" size={48} eager={index < 10} />
                  </td>
                  <td>
                    <Link to={`/products/${product._id}`}>{product.name}</Link>
                    {product.brand ? <div className="muted">{product.brand}</div> : null}
                  </td>
                  <td>{product.category}</td>
                  <td>{formatRupees(product.price)}</td>
                  <td>{product.stock}</td>
                  <td className="actions">
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
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <PreviousNextPages page={pagination.page} totalPages={pagination.totalPages} href={pageLink} />
    </section>
  );
}
