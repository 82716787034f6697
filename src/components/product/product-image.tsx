import { getImageProps } from "next/image";
import { preload } from "react-dom";

/**
 * A product's picture at 4:3 (seeded SVG art is served as is; uploads go through the image
 * optimiser). Rendered on the server from next/image's props, so it ships no client JavaScript;
 * `priority` marks the page's largest image: fetched eagerly, at high priority, and preloaded.
 */
export function ProductImage({ src, alt, sizes, priority = false }: { src: string | null; alt: string; sizes: string; priority?: boolean }) {
  if (!src) {
    return (
      <div className="relative aspect-[4/3] overflow-hidden bg-brand-50">
        <div className="flex h-full items-center justify-center text-sm text-muted">No image yet</div>
      </div>
    );
  }
  const { props } = getImageProps({ src, alt, fill: true, sizes, unoptimized: src.endsWith(".svg"), priority });
  if (priority) {
    preload(props.src, { as: "image", fetchPriority: "high", imageSrcSet: props.srcSet, imageSizes: props.sizes });
  }
  return (
    <div className="relative aspect-[4/3] overflow-hidden bg-brand-50">
      {/* eslint-disable-next-line @next/next/no-img-element, jsx-a11y/alt-text -- next/image's own props, alt included */}
      <img {...props} className="object-cover" />
    </div>
  );
}
