import { getImageProps } from "next/image";
import { preload } from "react-dom";

/**
 * A product's picture at 4:3 (seeded SVG art is served as is; uploads go through the image
 * optimiser). Rendered on the server from next/image's props, so it ships no client JavaScript;
 * `priority` marks the page's largest image: fetched eagerly and at high priority (the HTML's
 * <img> says so), and preloaded on a client navigation (React's hint reaches the RSC payload only).
 */
export function ProductImage({ src, alt, sizes, priority = false }: { src: string | null; alt: string; sizes: string; priority?: boolean }) {
  if (!src) {
    return (
      <div className="relative aspect-[4/3] overflow-hidden bg-brand-50">
        <div className="flex h-full items-center justify-center text-sm text-muted">No image yet</div>
      </div>
    );
  }
  // `preload` (Next 16's name for `priority`) only makes it eager; the priority is asked for here,
  // so the HTML's <img> says fetchpriority="high" to the browser's preload scanner.
  const { props } = getImageProps({ src, alt, fill: true, sizes, unoptimized: src.endsWith(".svg"), preload: priority, fetchPriority: priority ? "high" : undefined });
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
