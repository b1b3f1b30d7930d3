// What the PAL's face looks like at the <video> in WebKit, for a photo face and a clip face, quiet and loaded:
// the rows, bars and figures are test/helpers/face-look/suite.ts's (issue 51, point 7). One file per engine,
// so that the real-time runner's one retry of a failed file re-runs this engine only.
import { faceLookSuite } from '../../helpers/face-look/suite.js';

faceLookSuite('webkit');
