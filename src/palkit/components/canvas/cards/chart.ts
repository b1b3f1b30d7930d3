// canvas.chart: bar, line and pie charts drawn as SVG (no chart library), with the data repeated in a
// visually hidden table for screen readers.
import { html, svg } from 'lit';
import type { ChartArgs } from '../../../../protocol/canvas.js';
import type { CardContext } from './card-context.js';
import { styleProps } from '../../shared/style-props.js';

const palette = [
  '#5b5bf0',
  '#e4572e',
  '#17a398',
  '#f3a712',
  '#8e5ad6',
  '#2e86de',
  '#c0392b',
  '#27ae60',
  '#d35400',
  '#7f8c8d',
  '#e84393',
  '#16a085',
];
const color = (i: number) => `var(--pal-chart-color-${i + 1}, ${palette[i % palette.length]})`;
const number = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
const H = 200;

const short = (label: string, max: number) => (label.length > max ? `${label.slice(0, max - 1)}…` : label);
/** A length along the plot, in percent of its width or height. */
const pc = (v: number) => `${v}%`;

/** Round the axis top up to a tidy value (1, 2, 2.5, 5 × 10^n). */
function niceMax(v: number): number {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return ([1, 2, 2.5, 5, 10].find((m) => m * p >= v) ?? 10) * p;
}

// The labels are HTML around a plot SVG without a viewBox, its shapes placed in percent: an SVG scaled to
// a narrow card scaled its text with it (10 px came out at 9); HTML labels keep their size at every width,
// and the dots stay round however wide the plot is.
function barOrLine(args: ChartArgs, summary: string) {
  const values = args.data.map((d) => d.value);
  const min = Math.min(0, ...values) < 0 ? -niceMax(-Math.min(...values)) : 0;
  const max = niceMax(Math.max(0, ...values));
  const y = (v: number) => 100 * (1 - (v - min) / (max - min || 1));
  const ticks = [max, (min + max) / 2, min];
  const n = args.data.length;
  const band = 100 / n;
  const x = (i: number) => band * i + band / 2;
  const grid = ticks.map((t) => svg`<line class="gridline" x1="0" x2="100%" y1=${pc(y(t))} y2=${pc(y(t))}></line>`);
  const tip = (d: ChartArgs['data'][number]) => svg`<title>${d.label}: ${number.format(d.value)}</title>`;
  let marks;
  if ((args.chart_type ?? 'bar') === 'bar') {
    marks = args.data.map((d, i) => {
      const top = y(Math.max(0, d.value));
      const height = Math.abs(y(d.value) - y(0));
      return svg`<rect class="bar" x=${pc(x(i) - band * 0.35)} width=${pc(band * 0.7)} y=${pc(top)} height=${pc(height)} fill=${color(0)}>${tip(d)}</rect>`;
    });
  } else {
    // Segments, not a polyline: a polyline's points cannot be given in percent.
    const segments = args.data
      .slice(1)
      .map(
        (d, i) =>
          svg`<line class="line" x1=${pc(x(i))} y1=${pc(y(args.data[i]!.value))} x2=${pc(x(i + 1))} y2=${pc(y(d.value))} stroke=${color(0)}></line>`,
      );
    const dots = args.data.map((d, i) => svg`<circle cx=${pc(x(i))} cy=${pc(y(d.value))} r="3.5" fill=${color(0)}>${tip(d)}</circle>`);
    marks = svg`${segments}${dots}`;
  }
  return html`<div class="plot" style=${styleProps({ '--pal-chart-bands': String(n) })}>
    ${args.y_label ? html`<span class="axis-label y-label" aria-hidden="true">${short(args.y_label, 28)}</span>` : ''}
    <div class="y-ticks" aria-hidden="true">
      ${ticks.map((t) => html`<span class="tick" style=${styleProps({ top: pc(y(t)) })}>${number.format(t)}</span>`)}
      <span class="tick widest">${ticks.map((t) => number.format(t)).reduce((a, b) => (b.length > a.length ? b : a))}</span>
    </div>
    <svg role="img" aria-label=${summary}>${grid}${marks}</svg>
    <div class="x-ticks" aria-hidden="true">${args.data.map((d) => html`<span class="tick">${d.label}</span>`)}</div>
    ${args.x_label ? html`<span class="axis-label x-label" aria-hidden="true">${short(args.x_label, 40)}</span>` : ''}
  </div>`;
}

function pie(args: ChartArgs) {
  const values = args.data.map((d) => Math.max(0, d.value));
  const total = values.reduce((a, b) => a + b, 0) || 1;
  const [cx, cy, r] = [H / 2, H / 2, H / 2 - 8];
  let angle = -Math.PI / 2;
  const slices = values.map((v, i) => {
    const sweep = (v / total) * Math.PI * 2;
    const start = angle;
    angle += sweep;
    const d = args.data[i]!;
    const tip = svg`<title>${d.label}: ${number.format(d.value)}</title>`;
    if (sweep >= Math.PI * 2 - 1e-6) return svg`<circle cx=${cx} cy=${cy} r=${r} fill=${color(i)}>${tip}</circle>`;
    const p = (a: number) => `${cx + r * Math.cos(a)} ${cy + r * Math.sin(a)}`;
    return svg`<path d=${`M ${cx} ${cy} L ${p(start)} A ${r} ${r} 0 ${sweep > Math.PI ? 1 : 0} 1 ${p(angle)} Z`} fill=${color(i)}>${tip}</path>`;
  });
  return { slices, total };
}

export function renderChart(ctx: CardContext<ChartArgs>) {
  const { args } = ctx;
  const type = args.chart_type ?? 'bar';
  const summary = `${args.title ?? ctx.t('canvas.chartData')}: ${args.data.map((d) => `${d.label} ${number.format(d.value)}`).join(', ')}`;
  // Hidden by a wrapper, not on the table itself: Firefox clips a table's own box but paints its caption,
  // which stood over the pie ("Chart data").
  const table = html`<div class="sr-only"><table>
    <caption>${ctx.t('canvas.chartData')}</caption>
    <thead><tr><th scope="col">${args.x_label ?? ctx.t('canvas.chartLabel')}</th><th scope="col">${args.y_label ?? ctx.t('canvas.chartValue')}</th></tr></thead>
    <tbody>${args.data.map((d) => html`<tr><th scope="row">${d.label}</th><td>${number.format(d.value)}</td></tr>`)}</tbody>
  </table></div>`;
  if (type === 'pie') {
    const { slices, total } = pie(args);
    return html`<div class="chart pie">
      <svg viewBox=${`0 0 ${H} ${H}`} role="img" aria-label=${summary}>${slices}</svg>
      <ul class="legend" aria-hidden="true">
        ${args.data.map(
          (d, i) => html`<li><span class="swatch" style=${styleProps({ background: color(i) })}></span>${d.label}
          <span class="muted">${number.format(d.value)} (${Math.round((Math.max(0, d.value) / total) * 100)}%)</span></li>`,
        )}
      </ul>
      ${table}
    </div>`;
  }
  return html`<div class="chart">${barOrLine(args, summary)}${table}</div>`;
}
