import { useId } from "react";
import { scaleBand, scaleLinear, scalePoint } from "d3-scale";
import { area, line } from "d3-shape";
import { formatRupees } from "../lib/money";

/**
 * A report's chart as SVG in the page (docs/product.md, "Reports"): no script draws it, so it
 * shows without JavaScript, in lite mode and on paper. d3-scale places the points and picks the
 * ticks, d3-shape writes the line; the page's table below it carries the same numbers. Text is
 * the page's ink colour and the marks a dark blue, both well past axe's contrast ratios on white.
 */
export type ChartPoint = { label: string; value: number };

const WIDTH = 720;
const HEIGHT = 280;
const MARGIN = { top: 16, right: 16, bottom: 56, left: 88 };
const INK = "#1f2328";
const MARK = "#1d4f91";
const GRID = "#d0d7de";

export function ReportChart({
  title,
  description,
  points,
  money,
  kind,
  xLabel,
  yLabel,
}: {
  title: string;
  description: string;
  points: ChartPoint[];
  /** Values in rupees: the axis writes "Rs. …". */
  money: boolean;
  /** A line over days; bars for named groups. */
  kind: "line" | "bar";
  xLabel: string;
  yLabel: string;
}) {
  const id = useId();
  const top = Math.max(1, ...points.map((point) => point.value));
  const y = scaleLinear()
    .domain([0, top])
    .nice()
    .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const ticks = y.ticks(5).filter((tick) => money || Number.isInteger(tick));
  const formatValue = (value: number) => (money ? formatRupees(value) : value.toLocaleString("en-PK"));
  const labels = points.map((point) => point.label);
  // At most about 8 labels under the axis, evenly spaced, so they never overlap.
  const every = Math.max(1, Math.ceil(points.length / 8));
  const shownLabels = labels.filter((_, index) => index % every === 0);
  let marks: React.ReactNode;
  let xOf: (label: string) => number;
  if (kind === "line") {
    const x = scalePoint<string>()
      .domain(labels)
      .range([MARGIN.left, WIDTH - MARGIN.right])
      .padding(0.5);
    xOf = (label) => x(label) ?? 0;
    const path = line<ChartPoint>()
      .x((point) => xOf(point.label))
      .y((point) => y(point.value))(points);
    const shade = area<ChartPoint>()
      .x((point) => xOf(point.label))
      .y0(y(0))
      .y1((point) => y(point.value))(points);
    marks = (
      <g>
        <path d={shade ?? ""} fill={MARK} fillOpacity={0.12} />
        <path d={path ?? ""} fill="none" stroke={MARK} strokeWidth={2} />
        {points.length <= 62 &&
          points.map((point) => (
            <circle key={point.label} cx={xOf(point.label)} cy={y(point.value)} r={3} fill={MARK} />
          ))}
      </g>
    );
  } else {
    const x = scaleBand<string>()
      .domain(labels)
      .range([MARGIN.left, WIDTH - MARGIN.right])
      .padding(0.2);
    xOf = (label) => (x(label) ?? 0) + x.bandwidth() / 2;
    marks = (
      <g>
        {points.map((point) => (
          <rect
            key={point.label}
            x={x(point.label)}
            y={y(point.value)}
            width={x.bandwidth()}
            height={y(0) - y(point.value)}
            fill={MARK}
          />
        ))}
      </g>
    );
  }
  return (
    <figure className="report-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        className="report-chart__svg"
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        <g fontSize={12} fill={INK}>
          {ticks.map((tick) => (
            <g key={tick}>
              <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(tick)} y2={y(tick)} stroke={GRID} />
              <text x={MARGIN.left - 6} y={y(tick)} dy="0.32em" textAnchor="end">
                {formatValue(tick)}
              </text>
            </g>
          ))}
          {marks}
          <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(0)} y2={y(0)} stroke={INK} />
          {shownLabels.map((label) => (
            <text key={label} x={xOf(label)} y={HEIGHT - MARGIN.bottom + 16} textAnchor="middle">
              {label.length > 14 ? `${label.slice(0, 13)}…` : label}
            </text>
          ))}
          <text x={(MARGIN.left + WIDTH - MARGIN.right) / 2} y={HEIGHT - 8} textAnchor="middle" fontWeight={600}>
            {xLabel}
          </text>
          <text
            transform={`translate(14 ${(MARGIN.top + HEIGHT - MARGIN.bottom) / 2}) rotate(-90)`}
            textAnchor="middle"
            fontWeight={600}
          >
            {yLabel}
          </text>
        </g>
      </svg>
      <figcaption>{title}</figcaption>
    </figure>
  );
}
