/** The storage conformance suite on remote storage: the embedded store served across a message channel. */
import { newOwnedRemoteStorage } from '../../support/owned-storage.js';
import { runStorageConformance } from './conformance.js';

runStorageConformance('remote (sqlite owned across a message channel)', async () => {
  const { storage, close } = await newOwnedRemoteStorage();
  return { storage, cleanup: close };
});
