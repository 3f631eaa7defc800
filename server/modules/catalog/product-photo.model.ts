import { Model } from "objection";

/**
 * An uploaded photo (docs/decisions/2026-11-23-product-photos.md): processed once into variants,
 * never changed afterwards. A product shows at most one; order lines keep the one they sold.
 */
export class ProductPhoto extends Model {
  static tableName = "product_photos";

  id!: string;
  /** As shown, after the EXIF orientation was applied. */
  width!: number;
  height!: number;
  createdAt!: Date;
  variants?: PhotoVariant[];

  static relationMappings = () => ({
    variants: {
      relation: Model.HasManyRelation,
      modelClass: PhotoVariant,
      join: { from: "product_photos.id", to: "photo_variants.photoId" },
    },
  });
}

/** One file of a photo: a width in one format, served at /photos/<file> for a year. */
export class PhotoVariant extends Model {
  static tableName = "photo_variants";
  static idColumn = "file";

  file!: string;
  photoId!: string;
  width!: number;
  height!: number;
  type!: string;
  size!: number;
  bytes!: Buffer;
}
