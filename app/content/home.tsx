import { Link } from "react-router";
import { ProductImage } from "../components/product-image";
import { requestContext } from "../context";
import { formatRupees } from "../lib/money";
import { routeMeta } from "../lib/meta";
import type { Route } from "./+types/home";

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  return { newest: await services.catalog.newestInStock(4) };
}

export const meta: Route.MetaFunction = routeMeta({
    description:
      "Shop premium authentic watches for men and women in Pakistan: certificate of authenticity, manufacturer warranty, free delivery and cash on delivery.",
    path: "/",
    image: "/images/hero.svg",
  });

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <section className="hero">
        <div className="hero__text">
          <h1>Timeless watches, delivered to your door</h1>
          <p>Premium authentic watches for men and women. Free delivery across Pakistan, cash on delivery.</p>
          <div className="hero__actions">
            <Link className="button" to="/products">
              Shop Now
            </Link>
            <Link className="button button--ghost" to="/about">
              Our Story
            </Link>
          </div>
        </div>
        <img className="hero__image" src="/images/hero.svg" alt="" width="1200" height="600" />
      </section>

      <section className="section">
        <h2>Shop by collection</h2>
        <div className="collections">
          <Link className="collection-card" to="/products?category=Men">
            <span className="collection-card__title">Men's Collection</span>
            <span>Bold chronographs, divers and dress watches</span>
          </Link>
          <Link className="collection-card" to="/products?category=Women">
            <span className="collection-card__title">Women's Collection</span>
            <span>Elegant, slim and sparkling designs</span>
          </Link>
        </div>
      </section>

      {loaderData.newest.length > 0 ? (
        <section className="section">
          <h2>New arrivals</h2>
          <ul className="product-grid">
            {loaderData.newest.map((product) => (
              <li key={product._id} className="product-card">
                <Link to={`/products/${product._id}`} className="product-card__link">
                  <ProductImage src={product.imageUrl} alt={product.name} size={400} />
                  <span className="product-card__name">{product.name}</span>
                </Link>
                <span className="product-card__price">{formatRupees(product.price)}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
