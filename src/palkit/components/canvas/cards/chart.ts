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
const W = 320;
const H = 200;
const M = { top: 16, right: 8, bottom: 36, left: 36 };

const short = (label: string, max: number) => (label.length > max ? `${label.slice(0, max - 1)}…` : label);

/** Round the axis top up to a tidy value (1, 2, 2.5, 5 × 10^n). */
function niceMax(v: number): number {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return ([1, 2, 2.5, 5, 10].find((m) => m * p >= v) ?? 10) * p;
}

function axes(args: ChartArgs, min: number, max: number) {
  const y = (v: number) => M.top + (H - M.top - M.bottom) * (1 - (v - min) / (max - min || 1));
  const ticks = [min, (min + max) / 2, max];
  return {
    y,
    grid: svg`${ticks.map(
      (t) => svg`<line class="gridline" x1=${M.left} x2=${W - M.right} y1=${y(t)} y2=${y(t)}></line>
      <text class="tick" x=${M.left - 4} y=${y(t) + 3} text-anchor="end">${number.format(t)}</text>`,
    )}
      ${args.y_label ? svg`<text class="axis-label" x="10" y=${H / 2} transform=${`rotate(-90 10 ${H / 2})`} text-anchor="middle">${short(args.y_label, 28)}</text>` : ''}
      ${args.x_label ? svg`<text class="axis-label" x=${(W + M.left) / 2} y=${H - 2} text-anchor="middle">${short(args.x_label, 40)}</text>` : ''}`,
  };
}

function barOrLine(args: ChartArgs) {
  const values = args.data.map((d) => d.value);
  const min = Math.min(0, ...values) < 0 ? -niceMax(-Math.min(...values)) : 0;
  const max = niceMax(Math.max(0, ...values));
  const { y, grid } = axes(args, min, max);
  const n = args.data.length;
  const band = (W - M.left - M.right) / n;
  const x = (i: number) => M.left + band * i + band / 2;
  const labels = svg`${args.data.map((d, i) => svg`<text class="tick" x=${x(i)} y=${H - M.bottom + 12} text-anchor="middle">${short(d.label, Math.max(3, Math.floor(band / 6)))}</text>`)}`;
  if ((args.chart_type ?? 'bar') === 'bar') {
    const bars = args.data.map((d, i) => {
      const top = y(Math.max(0, d.value));
      return svg`<rect class="bar" x=${x(i) - band * 0.35} width=${band * 0.7} y=${top} height=${Math.max(1, Math.abs(y(d.value) - y(0)))} fill=${color(0)}><title>${d.label}: ${number.format(d.value)}</title></rect>`;
    });
    return svg`${grid}${bars}${labels}`;
  }
  const points = args.data.map((d, i) => `${x(i)},${y(d.value)}`).join(' ');
  return svg`${grid}<polyline class="line" points=${points} fill="none" stroke=${color(0)} stroke-width="2"></polyline>
    ${args.data.map((d, i) => svg`<circle cx=${x(i)} cy=${y(d.value)} r="3.5" fill=${color(0)}><title>${d.label}: ${number.format(d.value)}</title></circle>`)}${labels}`;
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
  return html`<div class="chart"><svg viewBox=${`0 0 ${W} ${H}`} role="img" aria-label=${summary}>${barOrLine(args)}</svg>${table}</div>`;
}
