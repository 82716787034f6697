import { messages } from "@/lib/messages";

export default function ProductLoading() {
  return (
    <main className="mx-auto max-w-6xl px-4 py-10 sm:px-6" aria-busy="true">
      <p role="status" className="text-muted">
        {messages.catalogue.loadingProduct}
      </p>
      <div className="mt-6 grid gap-8 md:grid-cols-2">
        <div className="aspect-[4/3] animate-pulse rounded-3xl bg-brand-50 motion-reduce:animate-none" />
        <div className="space-y-4">
          <div className="h-8 w-2/3 animate-pulse rounded bg-brand-50 motion-reduce:animate-none" />
          <div className="h-6 w-1/4 animate-pulse rounded bg-brand-50 motion-reduce:animate-none" />
          <div className="h-24 animate-pulse rounded bg-brand-50 motion-reduce:animate-none" />
        </div>
      </div>
    </main>
  );
}
