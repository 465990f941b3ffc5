/** The etcd v3 backend; see storage.ts. */
export { newEtcdStorage, type EtcdStorageOptions } from './storage.js';
