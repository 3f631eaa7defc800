import { Link } from "react-router";
import { NEW_ARRIVALS_SLOT } from "../components/image-slots";
import { ProductImage } from "../components/product-image";
import { requestContext } from "../context";
import { formatRupees } from "../lib/money";
import { routeMeta } from "../lib/meta";
import { FeatureGrid } from "./feature-grid";
import { FIRST_ORDER_CODE, STORE_FEATURES, TESTIMONIALS } from "./store-promises";
import { storeFigures } from "../../server/modules/reports/store-figures.shared";
import type { Route } from "./+types/home";

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  const [newest, counts] = await Promise.all([services.catalog.newestInStock(4), services.reports.storeCounts()]);
  // What the tiles show, not the whole rows: the data is sent again for hydration.
  return {
    newest: newest.map(({ _id, name, price, imageUrl, images, imagePlaceholder }) => ({
      _id,
      name,
      price,
      imageUrl,
      images,
      imagePlaceholder,
    })),
    figures: storeFigures(counts),
  };
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

      {/* Right under the hero: on a phone the first watches show within two screens (docs/product.md, "Pages on a phone"). */}
      {loaderData.newest.length > 0 ? (
        <section className="section">
          <h2>New arrivals</h2>
          <ul className="product-grid product-grid--four">
            {loaderData.newest.map((product) => (
              <li key={product._id} className="product-card">
                <Link to={`/products/${product._id}`} className="product-card__link">
                  <ProductImage
                    src={product.imageUrl}
                    images={product.images}
                    placeholder={product.imagePlaceholder}
                    slot={NEW_ARRIVALS_SLOT}
                    alt=""
                    size={400}
                  />
                  <span className="product-card__name">{product.name}</span>
                </Link>
                <span className="product-card__price">{formatRupees(product.price)}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section className="section" aria-labelledby="why-us">
        <h2 id="why-us" className="visually-hidden">
          Why shop with us
        </h2>
        <FeatureGrid features={STORE_FEATURES} />
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

      <section className="section discount-banner" aria-labelledby="first-order">
        <h2 id="first-order">10% off your first order</h2>
        <p>
          Enter code <strong className="discount-code">{FIRST_ORDER_CODE}</strong> at checkout and press Apply.{" "}
          <Link to="/faq#faq-0">How it works</Link>
        </p>
      </section>

      <section className="section" aria-labelledby="in-numbers">
        <h2 id="in-numbers" className="visually-hidden">
          In numbers
        </h2>
        <ul className="figures figures--home">
          {loaderData.figures.map((figure) => (
            <li key={figure.label} className="card figure">
              <span className="figure__value">{figure.value}</span>
              <span className="figure__label">{figure.label}</span>
            </li>
          ))}
        </ul>
      </section>

      <section className="section" aria-labelledby="testimonials">
        <h2 id="testimonials">What our customers say</h2>
        <ul className="testimonials">
          {TESTIMONIALS.map((testimonial) => (
            <li key={testimonial.name} className="card">
              <figure className="testimonial">
                <blockquote>
                  <p>{testimonial.quote}</p>
                </blockquote>
                <figcaption>
                  {testimonial.name}, {testimonial.city}
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </section>

      <section className="section cta-band" aria-labelledby="home-cta">
        <h2 id="home-cta">Ready to find your watch?</h2>
        <div className="hero__actions">
          <Link className="button" to="/products">
            Browse All Watches
          </Link>
          <Link className="button button--ghost" to="/about">
            About Us
          </Link>
          <Link className="button button--ghost" to="/contact">
            Contact Us
          </Link>
        </div>
      </section>
    </>
  );
}
