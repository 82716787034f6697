import Image from "next/image";

/** A product's picture at 4:3 (seeded SVG art is served as is; uploads go through next/image). */
export function ProductImage({ src, alt, sizes, priority = false }: { src: string | null; alt: string; sizes: string; priority?: boolean }) {
  return (
    <div className="relative aspect-[4/3] overflow-hidden bg-brand-50">
      {src ? (
        <Image src={src} alt={alt} fill sizes={sizes} priority={priority} unoptimized={src.endsWith(".svg")} className="object-cover" />
      ) : (
        <div className="flex h-full items-center justify-center text-sm text-muted">No image yet</div>
      )}
    </div>
  );
}
