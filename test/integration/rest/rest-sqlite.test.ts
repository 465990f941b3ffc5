import { runRestConformance } from './conformance.js';
import { startTestServer } from '../../support/api-server.js';

runRestConformance('sqlite', () => startTestServer());
