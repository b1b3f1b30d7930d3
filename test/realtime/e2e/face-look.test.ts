// What the PAL's face looks like at the <video> in Chromium, Firefox and WebKit, for a photo face and a clip
// face, quiet and loaded: the rows, bars and figures are test/helpers/face-look/suite.ts's (issue 51, point 7);
// which run by default, test/helpers/face-look/rows.ts. One file for the three engines: one service trains
// each face once and serves every engine's calls.
import { faceLookSuite } from '../../helpers/face-look/suite.js';

faceLookSuite();
