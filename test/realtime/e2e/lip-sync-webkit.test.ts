// Lip sync at the <video> in WebKit, for Ada and a trained face, quiet and loaded: the rows, bars and figures
// are test/helpers/lip-sync-suite.ts's. One file per engine, so that the real-time runner's one retry of a
// failed file re-runs this engine only; skipped when PALKIT_BROWSERS does not select webkit.
import { lipSyncSuite } from '../../helpers/lip-sync-suite.js';

lipSyncSuite('webkit');
