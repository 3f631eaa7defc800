import { Link } from "react-router";
import { ratingText, starsOf } from "../../server/modules/reviews/review-values.shared";
import type { PublicProduct } from "../../server/modules/catalog/product.model";
import { AddToCartForm } from "../cart/add-to-cart-form";
import { CompareButton } from "./compare-controls";
import { CARD_SLOT } from "../components/image-slots";
import { ProductImage } from "../components/product-image";
import { formatRupees } from "../lib/money";
import { brandSlug } from "../../server/modules/catalog/brands.shared";

export function stockLabel(stock: number): string {
  return stock > 0 ? `${stock} in stock` : "Out of stock";
}

/**
 * What a catalogue card shows of a product. A page sends its loader data again for hydration, so
 * the loaders send this much of each product rather than the whole row (dates, category).
 */
export type CardProduct = Pick<
  PublicProduct,
  | "_id"
  | "name"
  | "brand"
  | "description"
  | "price"
  | "stock"
  | "imageUrl"
  | "images"
  | "imagePlaceholder"
  | "rating"
  | "reviewCount"
>;

export function cardProductOf(product: PublicProduct): CardProduct {
  const { _id, name, brand, description, price, stock, imageUrl, images, imagePlaceholder, rating, reviewCount } =
    product;
  return { _id, name, brand, description, price, stock, imageUrl, images, imagePlaceholder, rating, reviewCount };
}

/**
 * The approved reviews' average and count ("★ 4.5 out of 5 · 12 reviews"); nothing without
 * one. The stars are drawn beside the figure, which is what screen readers read.
 */
export function RatingSummary({ rating, count, link }: { rating: number | null; count: number; link?: string }) {
  if (rating === null || count === 0) return null;
  const text = `${ratingText(rating)}, ${count} ${count === 1 ? "review" : "reviews"}`;
  return (
    <p className="rating">
      <span className="rating__stars" aria-hidden="true">
        {starsOf(rating)}
      </span>
      {link ? <a href={link}>{text}</a> : <span>{text}</span>}
    </p>
  );
}

/** One watch in the catalogue grid: image, name, description, price, stock, Add to Cart and Compare. */
export function ProductCard({ product, eagerImage }: { product: CardProduct; eagerImage: boolean }) {
  return (
    <li className="product-card">
      <Link to={`/products/${product._id}`} className="product-card__link">
        {/* The link is named by the watch's name beside the image; an alt would say it twice. */}
        <ProductImage
          src={product.imageUrl}
          images={product.images}
          placeholder={product.imagePlaceholder}
          slot={CARD_SLOT}
          alt=""
          size={400}
          eager={eagerImage}
        />
        <span className="product-card__name">{product.name}</span>
      </Link>
      <BrandName brand={product.brand} className="product-card__brand" />
      <RatingSummary rating={product.rating} count={product.reviewCount} />
      <p className="product-card__description">{product.description}</p>
      <span className="product-card__price">{formatRupees(product.price)}</span>
      <span className={product.stock > 0 ? "stock stock--in" : "stock stock--out"}>{stockLabel(product.stock)}</span>
      <AddToCartForm productId={product._id} productName={product.name} inStock={product.stock > 0} then="stay" />
      <CompareButton productId={product._id} productName={product.name} />
    </li>
  );
}

/** A brand's name, linked to its page when it has one (brands.shared.ts). */
export function BrandName({ brand, className }: { brand: string; className?: string }) {
  if (!brand) return null;
  const slug = brandSlug(brand);
  if (!slug) return <span className={className}>{brand}</span>;
  return (
    <Link to={`/brands/${slug}`} className={className}>
      {brand}
    </Link>
  );
}
