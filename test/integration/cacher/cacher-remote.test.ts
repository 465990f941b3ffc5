/** The watch cache on remote storage, as a --workers worker on the embedded store runs it. */
import { newOwnedRemoteStorage } from '../../support/owned-storage.js';
import { runCacherConformance } from './cacher-conformance.js';

runCacherConformance('remote (sqlite owned across a message channel)', newOwnedRemoteStorage);
