import { Link } from "react-router";
import type { PublicProduct } from "../../server/modules/catalog/product.model";
import { AddToCartForm } from "../cart/add-to-cart-form";
import { CARD_SLOT } from "../components/image-slots";
import { ProductImage } from "../components/product-image";
import { formatRupees } from "../lib/money";

export function stockLabel(stock: number): string {
  return stock > 0 ? `${stock} in stock` : "Out of stock";
}

/** One watch in the catalogue grid: image, name, description, price, stock and Add to Cart. */
export function ProductCard({ product, eagerImage }: { product: PublicProduct; eagerImage: boolean }) {
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
      {product.brand ? <span className="product-card__brand">{product.brand}</span> : null}
      <p className="product-card__description">{product.description}</p>
      <span className="product-card__price">{formatRupees(product.price)}</span>
      <span className={product.stock > 0 ? "stock stock--in" : "stock stock--out"}>{stockLabel(product.stock)}</span>
      <AddToCartForm productId={product._id} productName={product.name} inStock={product.stock > 0} then="stay" />
    </li>
  );
}
