import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorMessage, fieldPath } from '../../../../../apiserver/api/field-errors.js';
import { validateVolumes } from '../../../../../apiserver/registry/shared/pod-spec/volumes.js';
import type { Volume } from '../../../../../apiserver/api/generated/types.js';
import { type Decoded, LABEL_ERR } from '../../helpers.js';

const PATH = fieldPath('spec', 'volumes');

function messages(volumes: Decoded<Volume>[], podName?: string): string[] {
  return validateVolumes(volumes as Volume[], PATH, podName).errors.map(errorMessage);
}

test('a volume has exactly one source', () => {
  assert.deepEqual(messages([{ name: 'v' }]), ['spec.volumes[0]: Required value: must specify a volume type']);
  assert.deepEqual(messages([{ name: 'v', emptyDir: {}, configMap: { name: 'c' }, secret: { secretName: 's' } }]), [
    'spec.volumes[0].secret: Forbidden: may not specify more than 1 volume type',
    'spec.volumes[0].configMap: Forbidden: may not specify more than 1 volume type',
  ]);
  // Kubernetes' own path quirks for two sources.
  assert.deepEqual(messages([{ name: 'v', emptyDir: {}, downwardAPI: {}, cephfs: { monitors: ['m'] } }]), [
    'spec.volumes[0].cephFS: Forbidden: may not specify more than 1 volume type',
    'spec.volumes[0].downwarAPI: Forbidden: may not specify more than 1 volume type',
  ]);
});

test('volume names are unique DNS labels', () => {
  assert.deepEqual(messages([{ emptyDir: {} }]), ['spec.volumes[0].name: Required value']);
  assert.deepEqual(messages([{ name: 'Bad_Name', emptyDir: {} }]), [`spec.volumes[0].name: Invalid value: "Bad_Name": ${LABEL_ERR}`]);
  assert.deepEqual(
    messages([
      { name: 'a', emptyDir: {} },
      { name: 'a', emptyDir: {} },
    ]),
    ['spec.volumes[1].name: Duplicate value: "a"'],
  );
  const result = validateVolumes([{ name: 'a', emptyDir: {} }, { name: 'b' }], PATH);
  assert.deepEqual([...result.volumes.keys()], ['a'], 'only valid volumes can be mounted');
});

test('file modes are 0..0777', () => {
  const msg = 'must be a number between 0 and 0777 (octal), both inclusive';
  assert.deepEqual(messages([{ name: 'a', configMap: { name: 'c', defaultMode: 512 } }]), [
    `spec.volumes[0].configMap.defaultMode: Invalid value: 512: ${msg}`,
  ]);
  assert.deepEqual(messages([{ name: 'a', secret: { secretName: 's', defaultMode: -1 } }]), [
    `spec.volumes[0].secret.defaultMode: Invalid value: -1: ${msg}`,
  ]);
  assert.deepEqual(
    messages([{ name: 'a', secret: { secretName: 's', defaultMode: 0o777, items: [{ key: 'k', path: 'p', mode: 0o1000 }] } }]),
    [`spec.volumes[0].secret.items[0].mode: Invalid value: 512: ${msg}`],
  );
  assert.deepEqual(messages([{ name: 'a', projected: { defaultMode: 4096, sources: [] } }]), [
    `spec.volumes[0].projected.defaultMode: Invalid value: 4096: ${msg}`,
  ]);
  assert.deepEqual(messages([{ name: 'a', downwardAPI: { defaultMode: 0 } }]), []);
});

test('item paths are relative and never step up', () => {
  assert.deepEqual(
    messages([
      {
        name: 'a',
        configMap: {
          name: 'c',
          items: [{ key: 'k', path: '/etc/x' }, { key: 'k', path: 'a/../b' }, { key: 'k', path: '..x' }, { path: 'p' }, { key: 'k' }],
        },
      },
    ]),
    [
      'spec.volumes[0].configMap.items[0].path: Invalid value: "/etc/x": must be a relative path',
      `spec.volumes[0].configMap.items[1].path: Invalid value: "a/../b": must not contain '..'`,
      `spec.volumes[0].configMap.items[2].path: Invalid value: "..x": must not start with '..'`,
      'spec.volumes[0].configMap.items[3].key: Required value',
      'spec.volumes[0].configMap.items[4].path: Required value',
    ],
  );
});

test('each common source has its required fields', () => {
  const cases: [Decoded<Volume>, string[]][] = [
    [{ name: 'a', configMap: {} }, ['spec.volumes[0].configMap.name: Required value']],
    [{ name: 'a', secret: {} }, ['spec.volumes[0].secret.secretName: Required value']],
    [{ name: 'a', persistentVolumeClaim: {} }, ['spec.volumes[0].persistentVolumeClaim.claimName: Required value']],
    [{ name: 'a', hostPath: {} }, ['spec.volumes[0].hostPath.path: Required value']],
    [
      { name: 'a', hostPath: { path: '/a/../b', type: 'Dir' } },
      [
        `spec.volumes[0].hostPath.path: Invalid value: "/a/../b": must not contain '..'`,
        'spec.volumes[0].hostPath.type: Unsupported value: "Dir": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"',
      ],
    ],
    [
      { name: 'a', nfs: { path: 'rel' } },
      ['spec.volumes[0].nfs.server: Required value', 'spec.volumes[0].nfs.path: Invalid value: "rel": must be an absolute path'],
    ],
    [
      { name: 'a', csi: {} },
      ['spec.volumes[0].csi.driver: Required value', `spec.volumes[0].csi.driver: Invalid value: "": ${SUBDOMAIN_ERR}`],
    ],
    [
      { name: 'a', iscsi: { lun: 300 } },
      [
        'spec.volumes[0].iscsi.targetPortal: Required value',
        'spec.volumes[0].iscsi.iqn: Required value',
        'spec.volumes[0].iscsi.lun: Invalid value: 300: must be between 0 and 255, inclusive',
      ],
    ],
    [
      { name: 'a', iscsi: { targetPortal: 't', iqn: 'bogus' } },
      ['spec.volumes[0].iscsi.iqn: Invalid value: "bogus": must be valid format starting with iqn, eui, or naa'],
    ],
    [{ name: 'a', rbd: {} }, ['spec.volumes[0].rbd.monitors: Required value', 'spec.volumes[0].rbd.image: Required value']],
    [{ name: 'a', cephfs: {} }, ['spec.volumes[0].cephfs.monitors: Required value']],
    [{ name: 'a', fc: {} }, ['spec.volumes[0].fc.targetWWNs: Required value: must specify either targetWWNs or wwids, but not both']],
    [{ name: 'a', fc: { targetWWNs: ['w'] } }, ['spec.volumes[0].fc.lun: Required value: lun is required if targetWWNs is specified']],
    [
      { name: 'a', gcePersistentDisk: { partition: 300 } },
      [
        'spec.volumes[0].persistentDisk.pdName: Required value',
        'spec.volumes[0].persistentDisk.partition: Invalid value: 300: must be between 1 and 255, inclusive',
      ],
    ],
    [
      { name: 'a', azureFile: {} },
      ['spec.volumes[0].azureFile.secretName: Required value', 'spec.volumes[0].azureFile.shareName: Required value'],
    ],
    [
      { name: 'a', flexVolume: { driver: 'd', options: { 'x.k8s.io/opt': '1' } } },
      ['spec.volumes[0].flexVolume.options[x.k8s.io/opt]: Invalid value: "x.k8s.io/opt": kubernetes.io and k8s.io namespaces are reserved'],
    ],
    [
      { name: 'a', emptyDir: { sizeLimit: '-1Gi' } },
      ['spec.volumes[0].emptyDir.sizeLimit: Forbidden: SizeLimit field must be a valid resource quantity'],
    ],
    [
      { name: 'a', gitRepo: { directory: '/abs' } },
      [
        'spec.volumes[0].gitRepo.repository: Required value',
        'spec.volumes[0].gitRepo.directory: Invalid value: "/abs": must be a relative path',
      ],
    ],
  ];
  for (const [volume, expected] of cases) assert.deepEqual(messages([volume]), expected, JSON.stringify(volume));
});

const SUBDOMAIN_ERR =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

test('downward API files reference one pod field', () => {
  assert.deepEqual(
    messages([
      {
        name: 'a',
        downwardAPI: {
          items: [
            { path: 'n', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } },
            { path: 'l', fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['app']" } },
            { path: 'x', fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } },
            { path: 'y' },
            { path: 'z', resourceFieldRef: { resource: 'limits.cpu' } },
          ],
        },
      },
    ]),
    [
      'spec.volumes[0].downwardAPI.fieldRef.fieldPath: Unsupported value: "spec.nodeName": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"',
      'spec.volumes[0].downwardAPI: Required value: one of fieldRef and resourceFieldRef is required',
      'spec.volumes[0].downwardAPI.resourceFieldRef.containerName: Required value',
    ],
  );
});

test('projected sources: one kind each, no path twice, tokens of 10 minutes or more', () => {
  assert.deepEqual(
    messages([
      {
        name: 'a',
        projected: {
          sources: [
            { configMap: { name: 'c', items: [{ key: 'k', path: 'same' }] }, secret: { name: 's' } },
            { secret: { name: 's', items: [{ key: 'k', path: 'same' }] } },
            { serviceAccountToken: { path: 'token', expirationSeconds: 60 } },
          ],
        },
      },
    ]),
    [
      'spec.volumes[0].projected.sources[0]: Forbidden: may not specify more than 1 volume type per source',
      'spec.volumes[0].projected: Invalid value: "s": conflicting duplicate paths',
      'spec.volumes[0].projected.sources[2].serviceAccountToken.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    ],
  );
});

test("ephemeral volumes: a valid claim template, and a claim name derived from the pod's", () => {
  const template = {
    volumeClaimTemplate: {
      metadata: { name: 'nope', labels: { a: 'b' } },
      spec: {
        accessModes: ['ReadWriteOnce', 'ReadWriteOncePod', 'Sometimes'],
        resources: { requests: { storage: '0' } },
        volumeMode: 'Tape',
      },
    },
  };
  assert.deepEqual(messages([{ name: 'data', ephemeral: template }]), [
    'spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.name: Forbidden: cannot be set',
    'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.accessModes: Unsupported value: "Sometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
    'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes',
    'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources[storage]: Invalid value: "0": must be greater than zero',
    'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.volumeMode: Unsupported value: "Tape": supported values: "Block", "Filesystem"',
  ]);
  assert.deepEqual(messages([{ name: 'data', ephemeral: {} }]), ['spec.volumes[0].ephemeral.volumeClaimTemplate: Required value']);
  assert.deepEqual(messages([{ name: 'data', ephemeral: { volumeClaimTemplate: { spec: {} } } }]), [
    'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.accessModes: Required value: at least 1 access mode is required',
    'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources[storage]: Required value',
  ]);
  const good = { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } };
  assert.deepEqual(
    messages(
      [
        { name: 'data', ephemeral: good },
        { name: 'other', persistentVolumeClaim: { claimName: 'web-data' } },
      ],
      'web',
    ),
    [
      'spec.volumes[1].persistentVolumeClaim.claimName: Invalid value: "web-data": must not reference a PVC that gets created for an ephemeral volume',
    ],
  );
  assert.deepEqual(messages([{ name: 'data', ephemeral: good }], 'Web'), [
    `spec.volumes[0].name: Invalid value: "data": PVC name "Web-data": ${SUBDOMAIN_ERR}`,
  ]);
});
