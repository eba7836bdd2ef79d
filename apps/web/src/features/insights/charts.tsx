import { useEffect, useRef, useState, type ReactNode } from 'react';
import { scaleBand, scaleLinear } from 'd3-scale';
import { line, stack } from 'd3-shape';
import { bucketName, fmt, shortDay, type Bucket } from './insights-api.ts';

/**
 * Insights' charts: SVG drawn by React over d3's scales and stacking (decision 0110). Each is one `role="img"`
 * with a label saying what it shows; its numbers are in the table view beside it, which screen readers read.
 */

// Okabe–Ito, then darker tones: told apart with colour-blindness and in greyscale print by their order.
export const PALETTE = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#CC79A7',
  '#56B4E9',
  '#D55E00',
  '#F0E442',
  '#555555',
];
export const FAILED_COLOUR = '#C2410C';
export const SKIPPED_COLOUR = '#94A3B8';

const DEFAULT_WIDTH = 640;

/**
 * Draws at the width it is given on screen, so text stays 11 px on a phone and beside a wider chart alike (a
 * viewBox scaled down shrank it to 5 px). The viewBox stays, so on paper, where nothing measures again, the drawing
 * scales to the page's width instead of being cut.
 */
function Sized({ children }: { children: (width: number) => ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const seen = new ResizeObserver(([entry]) => {
      const w = Math.round(entry!.contentRect.width);
      if (w > 0) setWidth(w);
    });
    seen.observe(el);
    return () => seen.disconnect();
  }, []);
  return <div ref={ref}>{children(width)}</div>;
}
const M = { top: 8, right: 8, bottom: 22, left: 48 };
const compact = new Intl.NumberFormat('en-US', { notation: 'compact' });

export interface Series {
  label: string;
  colour: string;
  values: readonly (number | null)[];
}

/** Six day labels at most along the bottom, evenly spread. */
function dayTicks(days: readonly string[], width: number): number[] {
  const step = Math.max(1, Math.ceil(days.length / Math.max(2, Math.min(6, Math.floor(width / 90)))));
  return days.map((_, i) => i).filter((i) => i % step === 0);
}

function Axes({
  days,
  x,
  y,
  width,
  height,
  format,
}: {
  days: readonly string[];
  width: number;
  x: (i: number) => number;
  y: ReturnType<typeof scaleLinear<number, number>>;
  height: number;
  format: (n: number) => string;
}) {
  return (
    <g aria-hidden="true" className="text-[11px]" fill="#475569">
      {y.ticks(4).map((t) => (
        <g key={t}>
          <line x1={M.left} x2={width - M.right} y1={y(t)} y2={y(t)} stroke="#E2E8F0" />
          <text x={M.left - 6} y={y(t)} dy="0.32em" textAnchor="end">
            {format(t)}
          </text>
        </g>
      ))}
      {dayTicks(days, width).map((i) => (
        <text
          key={i}
          x={Math.min(width - M.right, x(i))}
          y={height - 6}
          // The last label ends at the edge rather than being cut by it.
          textAnchor={x(i) > width - M.right - 24 ? 'end' : 'middle'}
        >
          {shortDay(days[i]!)}
        </text>
      ))}
    </g>
  );
}

/** Bars per day or week, the series stacked in their order. */
export function StackedBars({
  days,
  bucket = 'day',
  series,
  label,
  height = 220,
}: {
  days: readonly string[];
  bucket?: Bucket;
  series: readonly Series[];
  label: string;
  height?: number;
}) {
  return (
    <Sized>
      {(width) => (
        <Bars days={days} bucket={bucket} series={series} label={label} height={height} width={width} />
      )}
    </Sized>
  );
}

function Bars({
  days,
  bucket,
  series,
  label,
  height,
  width,
}: {
  days: readonly string[];
  bucket: Bucket;
  series: readonly Series[];
  label: string;
  height: number;
  width: number;
}) {
  const x = scaleBand<number>()
    .domain(days.map((_, i) => i))
    .range([M.left, width - M.right])
    .padding(days.length > 45 ? 0.1 : 0.25);
  const rows = days.map((_, i) => series.map((s) => s.values[i] ?? 0));
  const layers = stack<number[], number>()
    .keys(series.map((_, k) => k))
    .value((row, k) => row[k] ?? 0)(rows);
  const top = Math.max(1, ...rows.map((r) => r.reduce((a, b) => a + b, 0)));
  const y = scaleLinear()
    .domain([0, top])
    .nice(4)
    .range([height - M.bottom, M.top]);
  return (
    <svg viewBox={`0 0 ${width} ${height}`} className="block h-auto w-full" role="img" aria-label={label}>
      <Axes
        days={days}
        x={(i) => x(i)! + x.bandwidth() / 2}
        y={y}
        width={width}
        height={height}
        format={(n) => compact.format(n)}
      />
      {layers.map((layer, k) => (
        <g key={k} fill={series[k]!.colour}>
          {layer.map(([y0, y1], i) =>
            y1 > y0 ? (
              <rect key={i} x={x(i)} width={x.bandwidth()} y={y(y1)} height={Math.max(0.5, y(y0) - y(y1))}>
                <title>{`${bucketName(days[i]!, bucket)}: ${series[k]!.label} ${fmt(y1 - y0)}`}</title>
              </rect>
            ) : null,
          )}
        </g>
      ))}
    </svg>
  );
}

/** One line per series over the days or weeks; a null value (no data then) breaks the line. */
export function Lines({
  days,
  bucket = 'day',
  series,
  label,
  max,
  format,
  height = 220,
}: {
  days: readonly string[];
  bucket?: Bucket;
  series: readonly Series[];
  label: string;
  max: number;
  format: (n: number) => string;
  height?: number;
}) {
  return (
    <Sized>
      {(width) => (
        <LinePaths
          days={days}
          bucket={bucket}
          series={series}
          label={label}
          max={max}
          format={format}
          height={height}
          width={width}
        />
      )}
    </Sized>
  );
}

function LinePaths({
  days,
  bucket,
  series,
  label,
  max,
  format,
  height,
  width,
}: {
  days: readonly string[];
  bucket: Bucket;
  series: readonly Series[];
  label: string;
  max: number;
  format: (n: number) => string;
  height: number;
  width: number;
}) {
  const x = scaleLinear()
    .domain([0, Math.max(1, days.length - 1)])
    .range([M.left + 6, width - M.right - 6]);
  const y = scaleLinear()
    .domain([0, max])
    .range([height - M.bottom, M.top]);
  const path = line<number | null>()
    .defined((v) => v !== null)
    .x((_, i) => x(i))
    .y((v) => y(v ?? 0));
  return (
    <svg viewBox={`0 0 ${width} ${height}`} className="block h-auto w-full" role="img" aria-label={label}>
      <Axes days={days} x={x} y={y} width={width} height={height} format={format} />
      {series.map((s) => (
        <g key={s.label}>
          <path d={path(s.values as (number | null)[]) ?? ''} fill="none" stroke={s.colour} strokeWidth={2} />
          {/* A lone day between gaps draws no line: a dot shows it. */}
          {days.length <= 31 &&
            s.values.map((v, i) =>
              v === null ? null : (
                <circle key={i} cx={x(i)} cy={y(v)} r={2.5} fill={s.colour}>
                  <title>{`${bucketName(days[i]!, bucket)}: ${s.label} ${format(v)}`}</title>
                </circle>
              ),
            )}
        </g>
      ))}
    </svg>
  );
}

export function Legend({ items }: { items: readonly { label: string; colour: string }[] }) {
  return (
    <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700" aria-hidden="true">
      {items.map((s) => (
        <li key={s.label} className="flex items-center gap-1.5">
          <span className="inline-block h-2.5 w-2.5 rounded-sm" style={{ background: s.colour }} />
          {s.label}
        </li>
      ))}
    </ul>
  );
}
