import { messages } from "@/lib/messages";
import type { ProductPicture } from "@/server/catalogue/picture-queries";
import { GalleryControls } from "./gallery-controls";
import { ProductImage } from "./product-image";

const mp = messages.productPictures;

/**
 * A product's pictures on its page (issue 37), rendered on the server: a row of 4:3 slides that
 * snap into place (CSS scroll-snap), so a phone swipes through them and a focused row scrolls
 * with the arrow keys before any script runs. GalleryControls, the one client island, adds
 * previous and next buttons, a button per picture and arrow keys that move one picture at a
 * time. Its row has a fixed height, so nothing moves when it wakes or a picture loads. One
 * picture (or none) is shown as the page always did, with no controls.
 */
export function ProductGallery({ id, pictures, productName, fallbackUrl, sizes }: { id: string; pictures: ProductPicture[]; productName: string; fallbackUrl: string | null; sizes: string }) {
  if (pictures.length <= 1) {
    return (
      <div className="overflow-hidden rounded-3xl border border-line">
        <ProductImage src={pictures[0]?.url ?? fallbackUrl} alt={pictures[0]?.alt ?? productName} sizes={sizes} priority />
      </div>
    );
  }
  return (
    <section id={id} aria-roledescription="carousel" aria-label={mp.galleryLabel(productName)}>
      <div
        data-gallery-track
        tabIndex={0}
        className="flex snap-x snap-mandatory overflow-x-auto overscroll-x-contain rounded-3xl border border-line [scrollbar-width:none] focus-visible:outline-offset-2 [&::-webkit-scrollbar]:hidden"
      >
        {pictures.map((picture, index) => (
          <div key={picture.id} data-picture-url={picture.url} role="group" aria-roledescription="slide" aria-label={mp.position(index + 1, pictures.length)} className="w-full shrink-0 snap-start snap-always">
            <ProductImage src={picture.url} alt={picture.alt} sizes={sizes} priority={index === 0} />
          </div>
        ))}
      </div>
      <GalleryControls galleryId={id} count={pictures.length} />
    </section>
  );
}
