"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatRand, formatRand2 } from "@/lib/money";

/**
 * Revenue per day as bars (recharts). Loaded by the overview page alone, through next/dynamic,
 * so the storefront never downloads it. Hidden from screen readers: the page gives the same
 * numbers as a table.
 */
export default function RevenueChart({ days }: { days: { day: string; revenue: string; orders: number }[] }) {
  const data = days.map((d) => ({ day: d.day.slice(5), revenue: Number(d.revenue), orders: d.orders }));
  return (
    <div aria-hidden="true" className="h-64 w-full" data-testid="revenue-chart">
      <ResponsiveContainer width="100%" height="100%">
        {/* No keyboard layer: the chart is hidden from assistive technology (the table has the numbers), so it takes no focus either. */}
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="var(--color-line)" />
          <XAxis dataKey="day" tick={{ fontSize: 12, fill: "var(--color-muted)" }} interval="preserveStartEnd" minTickGap={16} />
          <YAxis tick={{ fontSize: 12, fill: "var(--color-muted)" }} width={64} tickFormatter={(value: number) => formatRand(value)} />
          <Tooltip formatter={(value) => formatRand2(Number(value))} labelFormatter={(label) => `Day ${String(label)}`} />
          <Bar dataKey="revenue" name="Revenue" fill="var(--color-brand-700)" radius={[3, 3, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
