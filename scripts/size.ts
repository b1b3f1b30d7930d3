// `npm run size` (after `npm run build`): the script-tag sizes and the browser package's install size,
// failing when a budget is exceeded (scripts/size/report.ts).
import { sizeReport } from './size/report.js';

if (!(await sizeReport())) process.exit(1);
