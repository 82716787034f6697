import type { Service } from "@/lib/business-content";

/** Small line icons for the five lines of work. */
export function ServiceIcon({ icon }: { icon: Service["icon"] }) {
  const paths: Record<Service["icon"], React.ReactNode> = {
    sparkle: <path d="M12 3l1.8 5.2L19 10l-5.2 1.8L12 17l-1.8-5.2L5 10l5.2-1.8zM19 16l.8 2.2L22 19l-2.2.8L19 22l-.8-2.2L16 19l2.2-.8z" />,
    shield: <path d="M12 3l8 3v6c0 4.5-3.4 8.3-8 9-4.6-.7-8-4.5-8-9V6zm-3 9l2 2 4-4" />,
    needle: <path d="M4 20L18 6m0 0l2-2m-2 2l-3-1m3 1l1 3M7 21c3-1 4-4 2-6s-5-1-6 2" />,
    box: <path d="M3 7l9-4 9 4v10l-9 4-9-4zm0 0l9 4 9-4M12 11v10" />,
    pie: <path d="M3 13h18a9 9 0 0 1-18 0zm2-2c1-4 4-6 7-6s6 2 7 6M8 9l1-2m3 1V6m3 3l-1-2" />,
  };
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-7 w-7" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round">
      {paths[icon]}
    </svg>
  );
}
