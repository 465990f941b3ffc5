import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import YAML from 'yaml';
import {
  duplicateJsonFields,
  duplicateJsonKeysAsYaml,
  duplicateYamlKeys,
  goQuote,
  yamlUnmarshalErrors,
} from '../../../apiserver/api/duplicate-fields.js';

describe('duplicateJsonFields', () => {
  it('finds keys given twice at any depth, with their paths', () => {
    const text = '{"metadata":{"name":"a","name":"b","labels":{"x":"1"}},"spec":{"ports":[{"port":1},{"port":2,"port":3}]},"spec":{}}';
    assert.deepEqual(duplicateJsonFields(text), ['metadata.name', 'spec.ports[1].port', 'spec']);
  });

  it('is not fooled by strings that look like keys, escapes or whitespace', () => {
    assert.deepEqual(duplicateJsonFields('{"a": "b: \\"a\\":", "c" : [ "a", "a" ], "d\\u0041": 1, "dA": 2}'), ['dA']);
    assert.deepEqual(duplicateJsonFields('[{"a":1},{"a":1}]'), []);
    assert.deepEqual(duplicateJsonFields('{"a":{"b":1},"c":{"b":1}}'), []);
  });

  it('skips strings ending in escaped backslashes, and long strings around escapes', () => {
    const long = 'x'.repeat(5000);
    const key = 'k\\"';
    const text = JSON.stringify({ a: 'ends in \\', b: `${long}"${long}`, [key]: 1, c: [`\\${long}`, '"'] });
    const more = [`${JSON.stringify(key)}:2`, `"b":${JSON.stringify('\\\\')}`, `"c":{"a":${JSON.stringify('\\')}}`];
    const withDuplicates = `${text.slice(0, -1)},${more.join(',')}}`;
    JSON.parse(withDuplicates);
    assert.deepEqual(duplicateJsonFields(text), []);
    assert.deepEqual(duplicateJsonFields(withDuplicates), [key, 'b', 'c']);
  });
});

const yamlKeys = (text: string) => duplicateYamlKeys(YAML.parseDocument(text, { uniqueKeys: false }), text);

describe('duplicateYamlKeys', () => {
  it('words duplicates as yaml.v2 does, with the line of the value (conformance: duplicates in a CR preserving unknown fields)', () => {
    // field_validation.go's body: it starts with a line break, so `foo: foo2` is on line 9.
    const body = `
apiVersion: stable.example.com/v1
kind: Noxu
metadata:
  name: mytest
spec:
  unknown: uk1
  foo: foo1
  foo: foo2
  cronSpec: "* * * * */5"
  ports:
  - name: x
    containerPort: 80
    protocol: TCP`;
    assert.deepEqual(yamlKeys(body), ['line 9: key "foo" already set in map']);
    assert.equal(
      `error strict decoding YAML: error converting YAML to JSON: ${yamlUnmarshalErrors(yamlKeys(body))}`,
      'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 9: key "foo" already set in map',
    );
  });

  it("numbers the integration test's Deployment and custom resource bodies as Kubernetes does", () => {
    const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: dupename
  name: test-deployment
  unknownMeta: metaVal
  labels:
    app: nginx
spec:
  unknown1: val1
  unknownDupe: valDupe
  unknownDupe: valDupe2
  paused: true
  paused: false
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:latest
        unknownNested: val1
        imagePullPolicy: Always
        imagePullPolicy: Never`;
    assert.equal(
      yamlUnmarshalErrors(yamlKeys(deployment)),
      `yaml: unmarshal errors:
  line 5: key "name" already set in map
  line 12: key "unknownDupe" already set in map
  line 14: key "paused" already set in map
  line 28: key "imagePullPolicy" already set in map`,
    );
    const cr = `
apiVersion: "stable.example.com/v1"
kind: "Noxu"
metadata:
  name: dupename
  name: "test"
  resourceVersion: "1"
  unknownMeta: metaVal
spec:
  unknown1: val1
  unknownDupe: valDupe
  unknownDupe: valDupe2
  knownField1: val1
  knownField1: val2
  ports:
  - name: portName
    containerPort: 8080
    protocol: TCP
    hostPort: 8081
    hostPort: 8082
    unknownNested: val`;
    assert.deepEqual(yamlKeys(cr), [
      'line 6: key "name" already set in map',
      'line 12: key "unknownDupe" already set in map',
      'line 14: key "knownField1" already set in map',
      'line 20: key "hostPort" already set in map',
    ]);
  });

  it("places a duplicate at its value (an anchor or tag, an empty one at its key), after the value's own duplicates", () => {
    assert.deepEqual(yamlKeys('a: 1\na:\n  b: 1\n  b: 2\n'), ['line 4: key "b" already set in map', 'line 3: key "a" already set in map']);
    assert.deepEqual(yamlKeys('a: 1\na: &x\n\n  v\nb:\nb: # c & !\n  !!str w\nc: [1]\nc:\n- 2\nd: 1\nd:\ne: 1\n'), [
      'line 2: key "a" already set in map',
      'line 7: key "b" already set in map',
      'line 10: key "c" already set in map',
      'line 12: key "d" already set in map',
    ]);
    assert.deepEqual(yamlKeys('x: 1\r\na: 1\r\na: 2\r\n'), ['line 3: key "a" already set in map']);
  });

  it('tells keys apart by type and shows them as Go %#v does', () => {
    assert.deepEqual(
      yamlKeys('1: a\n"1": b\n1: c\n1.5: d\n1.5: e\n~: f\nnull: g\ntrue: h\ntrue: i\n"\\t\\u00e9\\u00a0": j\n"\\t\\u00e9\\u00a0": k\n'),
      [
        'line 3: key 1 already set in map',
        'line 5: key 1.5 already set in map',
        'line 7: key <nil> already set in map',
        'line 9: key true already set in map',
        'line 11: key "\\té\\u00a0" already set in map',
      ],
    );
    assert.equal(goQuote('a"\\\n\x01\x7f\u2028😀'), '"a\\"\\\\\\n\\x01\\x7f\\u2028😀"');
  });
});

describe('duplicateJsonKeysAsYaml', () => {
  it("words a JSON body's duplicates as YAML's (the integration test's apply body)", () => {
    const body = `{
		"apiVersion": "apps/v1",
		"kind": "Deployment",
		"metadata": {
			"name": "x",
			"labels": {"app": "nginx"}
		},
		"spec": {
			"paused": false,
			"paused": true,
			"selector": {
				"matchLabels": {
					"app": "nginx"
				}
			},
			"template": {
				"metadata": {
					"labels": {
						"app": "nginx"
					}
				},
				"spec": {
					"containers": [{
						"name":  "nginx",
						"image": "nginx:latest",
						"imagePullPolicy": "Never",
						"imagePullPolicy": "Always"
					}]
				}
			}
		}
	}`;
    assert.deepEqual(duplicateJsonKeysAsYaml(body), [
      'line 10: key "paused" already set in map',
      'line 27: key "imagePullPolicy" already set in map',
    ]);
    // A duplicate's own duplicates come first; its line is its value's.
    assert.deepEqual(duplicateJsonKeysAsYaml('{"a": 1, "a":\n {"b": 1,\n "b": [2]}, "c\\n": 1, "c\\n": 2}'), [
      'line 3: key "b" already set in map',
      'line 2: key "a" already set in map',
      'line 3: key "c\\n" already set in map',
    ]);
    assert.deepEqual(duplicateJsonKeysAsYaml('{"a": 1}'), []);
  });
});
